import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * Node subtitles in words. The canvas shows a node's `subtitle` expression under its name; the usual
 * `$parameter["operation"] + ": " + $parameter["resource"]` shows wire values ("getAll: customField").
 * These expressions look the stored values up in label lists built from the node's own options, so
 * the canvas says what the panel says. They use arrays and indexOf only (no object literals, whose
 * braces older expression parsers misread), and fall back to the raw value for an unknown one.
 */

const list = (values: string[]): string => JSON.stringify(values);

/**
 * The action of the selected operation ("Get many message templates"), from every `operation`
 * selector in `properties` (one per resource, shown for that resource).
 */
export function operationSubtitle(properties: INodeProperties[]): string {
	const keys: string[] = [];
	const labels: string[] = [];
	for (const property of properties) {
		if (property.name !== 'operation' || property.type !== 'options') continue;
		const resources = (property.displayOptions?.show?.resource ?? []) as string[];
		for (const resource of resources) {
			for (const option of (property.options ?? []) as INodePropertyOptions[]) {
				keys.push(`${resource}:${String(option.value)}`);
				labels.push(option.action ?? option.name);
			}
		}
	}
	return `={{ ${list(labels)}[${list(keys)}.indexOf($parameter["resource"] + ":" + $parameter["operation"])] || $parameter["operation"] }}`;
}

/** The names of the options selected in a multi-options parameter, comma-separated. */
export function selectedOptionsSubtitle(parameter: string, options: INodePropertyOptions[]): string {
	const values = list(options.map((option) => String(option.value)));
	const names = list(options.map((option) => option.name));
	return `={{ ($parameter["${parameter}"] || []).map(v => ${names}[${values}.indexOf(v)] || v).join(", ") }}`;
}
