import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * One property per parameter name, where operations share a field (DESIGN.md, "Cost per item").
 *
 * n8n's routing engine resolves the value of every property of the node twice per item, shown or
 * not: six properties named Phone Number evaluated a mapped phone number twelve times per item.
 * Operations that declare the same field (same type, default, texts and own display rules) share
 * one property, shown for each of them; a collection (Options, Additional Fields, …) becomes one
 * collection whose entries are shown for the operations that offer them. The names and defaults
 * stay, so saved workflows read the same, and each operation's panel lists the same fields in the
 * same order.
 */

/** An operation as a version offers it: the display values that select its fields. */
interface Form {
	resource: string;
	operation: string;
	version: number;
}

const formKey = (form: Form): string => `${form.resource}|${form.operation}|${form.version}`;

/** The keys that select an operation, at the top level and inside a collection. */
interface SelectorKeys {
	resource: string;
	operation: string;
}
const TOP: SelectorKeys = { resource: 'resource', operation: 'operation' };
const INSIDE: SelectorKeys = { resource: '/resource', operation: '/operation' };
const VERSION = '@version';

type Show = NonNullable<IDisplayOptions['show']>;

/** A property (or a collection's entry) with the forms that show it. */
interface Member {
	property: INodeProperties;
	forms: Form[];
}

/** Deep equality of plain description data (functions compared by identity). */
function same(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	const keysA = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
	const keysB = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
	if (keysA.length !== keysB.length) return false;
	return keysA.every((key) => same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** The property without what selects its operation: what two operations' fields must share. */
function ownPart(property: INodeProperties, keys: SelectorKeys): INodeProperties {
	const { displayOptions, ...rest } = property;
	const show: Show = { ...displayOptions?.show };
	delete show[keys.resource];
	delete show[keys.operation];
	delete show[VERSION];
	const own: IDisplayOptions = { ...displayOptions };
	if (Object.keys(show).length > 0) own.show = show;
	else delete own.show;
	return Object.keys(own).length > 0 ? { ...rest, displayOptions: own } : rest;
}

/** The forms of `versions` (every version when absent) for a resource's operation. */
function formsOf(resource: string, operation: string, versions: number[]): Form[] {
	return versions.map((version) => ({ resource, operation, version }));
}

/** The forms a property (shown for one operation) belongs to. */
function formsShowing(property: INodeProperties, keys: SelectorKeys, allVersions: number[]): Form[] {
	const show = property.displayOptions?.show ?? {};
	const resources = (show[keys.resource] ?? []) as string[];
	const operations = (show[keys.operation] ?? []) as string[];
	const versions = (show[VERSION] as number[] | undefined) ?? allVersions;
	return resources.flatMap((resource) => operations.flatMap((operation) => formsOf(resource, operation, versions)));
}

/** The display rules that show a property for exactly `forms`, or undefined when they cannot. */
function showingExactly(forms: Form[], keys: SelectorKeys, existing: Set<string>, allVersions: number[]): Show | undefined {
	const unique = <T>(values: T[]): T[] => [...new Set(values)];
	const resources = unique(forms.map((form) => form.resource));
	const operations = unique(forms.map((form) => form.operation));
	const versions = unique(forms.map((form) => form.version)).sort((a, b) => a - b);
	const covered = new Set(forms.map(formKey));
	// n8n ANDs the keys: every existing combination of them must be one of the forms.
	for (const resource of resources) {
		for (const operation of operations) {
			for (const version of versions) {
				const key = formKey({ resource, operation, version });
				if (existing.has(key) && !covered.has(key)) return undefined;
			}
		}
	}
	const show: Show = { [keys.resource]: resources, [keys.operation]: operations };
	if (versions.length !== allVersions.length) show[VERSION] = versions;
	return show;
}

/** The forms of one operation's versions that declare the same field, as one member. */
function sameOperationTogether(members: Member[], keys: SelectorKeys): Member[] {
	const together: Array<Member & { own: INodeProperties; operation: string }> = [];
	for (const member of members) {
		const own = ownPart(member.property, keys);
		const operation = [...new Set(member.forms.map((form) => `${form.resource}|${form.operation}`))].join(',');
		const twin = together.find((other) => other.operation === operation && same(other.own, own));
		if (twin) twin.forms = [...twin.forms, ...member.forms];
		else together.push({ ...member, own, operation });
	}
	return together.map(({ property, forms }) => ({ property, forms }));
}

/**
 * Members that are the same field become one property, shown for all their forms; members that
 * differ, or whose forms n8n's display rules cannot select together, stay apart.
 */
function merge(members: Member[], keys: SelectorKeys, existing: Set<string>, allVersions: number[]): INodeProperties[] {
	// Each member its own group; then groups of the same field join while the display rules can
	// still show the joined group for exactly its forms.
	const groups = sameOperationTogether(members, keys).map((member) => ({
		own: ownPart(member.property, keys),
		forms: member.forms,
		show: showingExactly(member.forms, keys, existing, allVersions) as Show,
	}));
	for (let joined = true; joined; ) {
		joined = false;
		for (let i = 0; i < groups.length && !joined; i++) {
			for (let j = i + 1; j < groups.length && !joined; j++) {
				if (!same(groups[i].own, groups[j].own)) continue;
				const forms = [...groups[i].forms, ...groups[j].forms];
				const show = showingExactly(forms, keys, existing, allVersions);
				if (show === undefined) continue;
				groups[i] = { own: groups[i].own, forms, show };
				groups.splice(j, 1);
				joined = true;
			}
		}
	}
	return groups.map(({ own, show }) => ({
		...own,
		displayOptions: { ...own.displayOptions, show: { ...show, ...own.displayOptions?.show } },
	}));
}

/** A collection's entries, each shown (inside the shared collection) for its operation's forms. */
function entriesOf(member: Member, allVersions: number[]): Member[] {
	return ((member.property.options ?? []) as INodeProperties[]).map((entry) => {
		const versions = [...new Set(member.forms.map((form) => form.version))];
		const operations = [...new Set(member.forms.map((form) => `${form.resource}|${form.operation}`))];
		const show: Show = { ...entry.displayOptions?.show };
		if (operations.length === 1) {
			const [resource, operation] = operations[0].split('|');
			show[INSIDE.resource] = [resource];
			show[INSIDE.operation] = [operation];
			if (versions.length !== allVersions.length) show[VERSION] = versions;
		}
		return { property: { ...entry, displayOptions: { ...entry.displayOptions, show } }, forms: member.forms };
	});
}

/** Collections of one name become one: the same shell, every operation's entries. */
function mergeCollections(members: Member[], existing: Set<string>, allVersions: number[]): INodeProperties[] {
	const shell = (property: INodeProperties) => ({ ...ownPart(property, TOP), options: undefined });
	if (!members.every((member) => same(shell(member.property), shell(members[0].property)))) {
		return merge(members, TOP, existing, allVersions);
	}
	const collections = merge(
		members.map((member) => ({ property: { ...member.property, options: [] }, forms: member.forms })),
		TOP,
		existing,
		allVersions,
	);
	return collections.map((collection) => {
		const shown = new Set(formsShowing(collection, TOP, allVersions).map(formKey));
		const owners = members.filter((member) => member.forms.some((form) => shown.has(formKey(form))));
		const entries = owners.map((member) => entriesOf(member, allVersions));
		const byName = new Map<string, Member[]>();
		for (const entry of entries.flat()) byName.set(entry.property.name, [...(byName.get(entry.property.name) ?? []), entry]);
		const merged = [...byName.values()].flatMap((group) => merge(group, INSIDE, existing, allVersions));
		// Each operation's entries keep their order (n8n lists a collection's added entries so).
		const ownerOf = (entry: Member): INodeProperties =>
			merged.find(
				(candidate) =>
					same(ownPart(candidate, INSIDE), ownPart(entry.property, INSIDE)) &&
					formsShowing(candidate, INSIDE, allVersions).some((form) => formKey(form) === formKey(entry.forms[0])),
			) as INodeProperties;
		const sequences = entries.map((list) => list.map(ownerOf));
		const first = new Map<INodeProperties, number>();
		sequences.flat().forEach((entry, index) => {
			if (!first.has(entry)) first.set(entry, index);
		});
		const options = inEveryOrder([...first.keys()], sequences, first).map(withoutEmptyDisplay);
		return { ...collection, options };
	});
}

function withoutEmptyDisplay(property: INodeProperties): INodeProperties {
	const show = property.displayOptions?.show;
	if (!show || Object.keys(show).length > 0) return property;
	const { displayOptions, ...rest } = property;
	const others: IDisplayOptions = { ...displayOptions };
	delete others.show;
	return Object.keys(others).length > 0 ? { ...rest, displayOptions: others } : rest;
}

/**
 * The order of the shared properties: each operation lists its fields in its own order (n8n shows
 * a node's properties in the order of the description), so the properties are sorted so that
 * every operation's order holds; ties keep the original order.
 */
function inEveryOrder(properties: INodeProperties[], sequences: INodeProperties[][], first: Map<INodeProperties, number>): INodeProperties[] {
	const after = new Map<INodeProperties, Set<INodeProperties>>(properties.map((p) => [p, new Set()]));
	const before = new Map<INodeProperties, number>(properties.map((p) => [p, 0]));
	for (const sequence of sequences) {
		for (let index = 1; index < sequence.length; index++) {
			const [from, to] = [sequence[index - 1], sequence[index]];
			if (from === to || after.get(from)?.has(to)) continue;
			after.get(from)?.add(to);
			before.set(to, (before.get(to) ?? 0) + 1);
		}
	}
	const ordered: INodeProperties[] = [];
	const ready = properties.filter((p) => before.get(p) === 0);
	while (ready.length > 0) {
		ready.sort((a, b) => (first.get(a) ?? 0) - (first.get(b) ?? 0));
		const next = ready.shift() as INodeProperties;
		ordered.push(next);
		for (const to of after.get(next) ?? []) {
			before.set(to, (before.get(to) ?? 0) - 1);
			if (before.get(to) === 0) ready.push(to);
		}
	}
	if (ordered.length !== properties.length) {
		throw new Error('Conversation Inbox: two operations list shared fields in opposite orders');
	}
	return ordered;
}

/**
 * The operation selectors, then every field once per name (see above). `properties` are the
 * resources' selectors and their operations' fields (helpers/operation.ts `resourceProperties`).
 */
export function shareByName(properties: INodeProperties[], allVersions: number[]): INodeProperties[] {
	const selectors = properties.filter((property) => property.name === 'operation');
	const existing = new Set(
		selectors.flatMap((selector) => {
			const resource = (selector.displayOptions?.show?.resource ?? []) as string[];
			const versions = (selector.displayOptions?.show?.[VERSION] as number[] | undefined) ?? allVersions;
			return (selector.options ?? []).flatMap((option) =>
				resource.flatMap((r) => formsOf(r, String((option as { value: unknown }).value), versions).map(formKey)),
			);
		}),
	);
	const fields = properties.filter((property) => property.name !== 'operation');
	const byName = new Map<string, Member[]>();
	for (const property of fields) {
		const member = { property, forms: formsShowing(property, TOP, allVersions) };
		byName.set(property.name, [...(byName.get(property.name) ?? []), member]);
	}
	// Each original property → the shared property that shows it for its forms.
	const sharedOf = new Map<INodeProperties, INodeProperties>();
	const first = new Map<INodeProperties, number>();
	for (const members of byName.values()) {
		const isCollection = members.every((member) => member.property.type === 'collection');
		const shared = isCollection ? mergeCollections(members, existing, allVersions) : merge(members, TOP, existing, allVersions);
		for (const member of members) {
			const key = formKey(member.forms[0]);
			const owner = shared.find((property) => formsShowing(property, TOP, allVersions).some((form) => formKey(form) === key));
			sharedOf.set(member.property, owner as INodeProperties);
		}
	}
	fields.forEach((property, index) => {
		const owner = sharedOf.get(property) as INodeProperties;
		if (!first.has(owner)) first.set(owner, index);
	});
	const sequences = new Map<string, INodeProperties[]>();
	for (const property of fields) {
		for (const form of formsShowing(property, TOP, allVersions)) {
			const key = formKey(form);
			sequences.set(key, [...(sequences.get(key) ?? []), sharedOf.get(property) as INodeProperties]);
		}
	}
	const shared = [...first.keys()];
	return [...selectors, ...inEveryOrder(shared, [...sequences.values()], first)];
}
