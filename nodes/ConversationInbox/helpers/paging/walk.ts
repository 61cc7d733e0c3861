import type { IDataObject } from 'n8n-workflow';

import { listAt } from '../../../shared/answers';
import { AssumptionFailed, asItemJson } from '../output';
import type { ListSpec, PagingNames } from './index';

/**
 * What every walk shares: the output being built (`Sink`), the page budget and the check that a page
 * does not repeat the previous one (`Walk`).
 */

/**
 * Sends one page: the query values given override the prepared request's. `signal` ends the
 * page's waits (shared Retry-After, backoff) when the walk is abandoned. Returns the body.
 */
export type SendPage = (query: IDataObject, signal?: AbortSignal) => Promise<IDataObject>;

/**
 * The last-resort cap of one walk: a walk that has not ended after this many pages is stopped. A
 * list that gives its total may take more: twice the pages its total needs (walk.expect).
 */
export const MAX_PAGES_PER_WALK = 1000;

/**
 * A walk that cannot go on correctly: the API repeated a page or a cursor (it ignores a paging
 * parameter), or the walk hit MAX_PAGES_PER_WALK. It becomes the item's error.
 */
export class PagingStopped extends AssumptionFailed {}

/** A page's elements (the reader of answers has refused a page without the list). */
export const elementsOf = listAt;

/** How the output is built, beside the elements' order. */
export interface SinkOptions {
	/** undefined = all */
	limit: number | undefined;
	/** drop an element identical (as a whole) to one taken earlier */
	dedupe: boolean;
	/** keep the elements of each page apart (`pages`) */
	byPage?: boolean;
	/**
	 * The most elements the output may hold; one more (or a total above it) throws `tooMany`. The
	 * walk asks for at most one element past it, so no request goes beyond that point.
	 */
	capacity?: number;
	tooMany?: (total: number | undefined) => Error;
}

/**
 * The output being built: elements in order, at most `limit`, and the pages they came in. With
 * `dedupe`, an element identical to one already taken (the WHOLE element, never one field of it) is
 * a copy that a list changing while it is paged pushed across a page boundary, and is dropped: two
 * contacts that share a phone number, or two LID-only contacts without one, are different elements
 * and both stay.
 */
export class Sink {
	readonly results: IDataObject[] = [];
	/** with `byPage`: the elements taken from each page that gave any, in order */
	readonly pages: IDataObject[][] = [];
	private readonly seen: Seen | undefined;
	private readonly limit: number | undefined;

	constructor(private readonly options: SinkOptions) {
		this.seen = options.dedupe ? new Seen() : undefined;
		const { capacity } = options;
		// One past the capacity: enough to tell "exactly full" from "too many".
		this.limit = capacity === undefined ? options.limit : Math.min(options.limit ?? Infinity, capacity + 1);
	}

	/** The API's total: a list the output cannot hold stops here, before its next page is asked for. */
	announce(total: number): void {
		const { capacity, tooMany } = this.options;
		if (capacity !== undefined && tooMany && Math.min(total, this.limit ?? Infinity) > capacity) throw tooMany(total);
	}

	/** Return All (no Limit): the walk asks for whole pages */
	get all(): boolean {
		return this.options.limit === undefined;
	}

	get full(): boolean {
		return this.limit !== undefined && this.results.length >= this.limit;
	}

	/** Elements still wanted (Infinity with Return All). */
	get missing(): number {
		return this.limit === undefined ? Infinity : this.limit - this.results.length;
	}

	add(list: unknown[]): void {
		const { results, seen } = this;
		const before = results.length;
		for (let i = 0; i < list.length && !this.full; i++) {
			if (seen !== undefined && !seen.take(list[i])) continue;
			results.push(asItemJson(list[i]));
		}
		const { capacity, tooMany } = this.options;
		if (capacity !== undefined && tooMany && results.length > capacity) throw tooMany(undefined);
		if (this.options.byPage === true && results.length > before) this.pages.push(results.slice(before));
	}
}

/** A primitive of JSON: what a first field holds for `Seen` to group by it. */
type Primitive = string | number | boolean | null;

/** An object element's first field (name and value) when that value is a primitive. */
function firstField(element: unknown): [string, Primitive] | undefined {
	if (element === null || typeof element !== 'object' || Array.isArray(element)) return undefined;
	const object = element as Record<string, unknown>;
	for (const name in object) {
		if (!Object.prototype.hasOwnProperty.call(object, name)) continue;
		const value = object[name];
		const primitive = value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
		return primitive ? [name, value as Primitive] : undefined;
	}
	return undefined;
}

/**
 * The elements taken, to tell whether one is identical (as JSON, the whole element) to one taken
 * earlier. Grouped by their first field (name and value): two identical elements share it, so they
 * are written out as JSON and compared only within a group that has more than one element. A list
 * whose elements differ in their first field (an ID, a phone number) is never written out (issue 37:
 * JSON per element was the tag walk's largest cost of ours); any other list costs what it did.
 */
class Seen {
	private readonly groups = new Map<string, Map<Primitive, { first: unknown; json?: Set<string> }>>();
	/** elements without a primitive first field, as JSON */
	private readonly others = new Set<string>();

	/** False when an identical element was taken before; else takes it. */
	take(element: unknown): boolean {
		const first = firstField(element);
		if (first === undefined) return addNew(this.others, JSON.stringify(element));
		const [name, value] = first;
		let byValue = this.groups.get(name);
		if (byValue === undefined) {
			byValue = new Map();
			this.groups.set(name, byValue);
		}
		const group = byValue.get(value);
		if (group === undefined) {
			byValue.set(value, { first: element });
			return true;
		}
		group.json ??= new Set([JSON.stringify(group.first)]);
		return addNew(group.json, JSON.stringify(element));
	}
}

/** Adds `key`; false when it was there. */
function addNew(set: Set<string>, key: string): boolean {
	if (set.has(key)) return false;
	set.add(key);
	return true;
}

function sameElement(a: unknown, b: unknown): boolean {
	return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The page holds the first elements of the previous page. Its first element decides in most cases,
 * so a page that moves on costs one comparison, not one per element.
 */
function repeats(list: unknown[], previous: unknown[]): boolean {
	if (previous.length === 0 || !sameElement(list[0], previous[0])) return false;
	return list.every((element, i) => i >= previous.length || sameElement(element, previous[i]));
}

/** Which paging parameter a repeated page points at, and the option that renames it. */
export interface Suspect {
	parameter: string;
	option: string;
}

/**
 * The page budget (MAX_PAGES_PER_WALK) and the repeat check. A page repeats when it is not empty and
 * its elements equal the first elements of the previous page: an API that ignores the offset (or
 * cursor) sends the start of the list again. Such a walk stops at the first repeated page, so at
 * most one request is wasted.
 */
export class Walk {
	private pages = 0;
	private budget = MAX_PAGES_PER_WALK;
	private previous: unknown[] | undefined;

	constructor(
		readonly spec: ListSpec,
		readonly names: PagingNames,
		private readonly sendPage: SendPage,
		private readonly describeNames: string,
	) {}

	/** The API's total says the list takes `pages` pages: a bigger list is not an endless one. */
	expect(pages: number): void {
		this.budget = Math.max(MAX_PAGES_PER_WALK, 2 * pages);
	}

	async send(query: IDataObject, signal?: AbortSignal): Promise<IDataObject> {
		if (++this.pages > this.budget) {
			throw new PagingStopped(
				`The list did not end after ${this.budget} pages`,
				`The node stopped paging ${this.spec.itemsPath} after ${this.budget} requests for one item, so that a list that never ends cannot flood the API. If the API really holds more, turn Return All off and set a Limit; if each page repeats data, the API may name the paging parameters differently from ${this.describeNames}: set them under Options.`,
			);
		}
		return await this.sendPage(query, signal);
	}

	/** The page's elements after the repeat check; `where` names the page in the error. */
	accept(body: unknown, where: string, suspect: Suspect): unknown[] {
		const list = elementsOf(body, this.spec.itemsPath);
		if (list.length === 0) return list;
		const previous = this.previous;
		this.previous = list;
		if (previous !== undefined && repeats(list, previous)) {
			const { parameter, option } = suspect;
			throw new PagingStopped(
				`The API sent the same page again (${where}): it seems to ignore the query parameter "${parameter}"`,
				`The node assumes the API pages with "${parameter}" (the spec does not name it). The API answered with the elements of the previous page, so paging on would repeat them for ever. Set the name the API uses under Options → ${option} and run again. The node stopped after this one repeated request; no output was produced for this item.`,
			);
		}
		return list;
	}
}
