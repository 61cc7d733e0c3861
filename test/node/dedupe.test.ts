/**
 * Tag → Get Contacts drops a contact identical (as a whole) to one taken earlier: a copy that the
 * list changing while it is paged pushed across a page boundary (paging/walk.ts `Sink`, DESIGN.md
 * "Paging when our guesses are wrong"). Elements that only share a field stay. Since issue 37 the
 * elements are grouped by their first field and compared as JSON only within a group; these cases
 * pin that this finds exactly what comparing every element as JSON found.
 * (The walk itself, with a tag that grows while it is paged: test/node/pagination.test.ts.)
 */
import { Sink } from '../../nodes/ConversationInbox/helpers/paging/walk';

const taken = (pages: unknown[][]): unknown[] => {
	const sink = new Sink({ limit: undefined, dedupe: true });
	for (const page of pages) sink.add(page);
	return sink.results;
};

describe('Sink with dedupe: identical as a whole, nothing less', () => {
	test('contacts sharing a phone number, and contacts without one (LID only), all stay; their copies on a later page are dropped', () => {
		const first = [
			{ phoneNumber: '5511900000001', name: 'Ana' },
			{ phoneNumber: '5511900000001', name: 'Bia' },
			{ phoneNumber: null, lid: '111@lid' },
			{ phoneNumber: null, lid: '222@lid' },
		];
		const second = [
			{ phoneNumber: '5511900000001', name: 'Bia' },
			{ phoneNumber: null, lid: '222@lid' },
			{ phoneNumber: '5511900000001', name: 'Caio' },
			{ phoneNumber: null, lid: '333@lid' },
		];
		expect(taken([first, second])).toEqual([...first, second[2], second[3]]);
	});

	test('the same fields in another order, or a nested value that differs, is another element; elements that are not objects are compared as JSON too', () => {
		const page = [
			{ id: 1, tags: ['a'] },
			{ tags: ['a'], id: 1 },
			{ id: 1, tags: ['b'] },
			{ nested: { id: 1 } },
			{ nested: { id: 1 } },
			'1',
			1,
			'1',
			[1],
			[1],
			true,
		];
		expect(taken([page])).toEqual([
			{ id: 1, tags: ['a'] },
			{ tags: ['a'], id: 1 },
			{ id: 1, tags: ['b'] },
			{ nested: { id: 1 } },
			{ value: '1' },
			{ value: 1 },
			{ value: [1] },
			{ value: true },
		]);
	});

	test('an element whose first field no other element shares yet, and its copy on the next page: one stays', () => {
		const page = [{ id: 7, name: 'Ana' }, { id: 8, name: 'Bia' }];
		expect(taken([page, [{ id: 8, name: 'Bia' }, { id: 9, name: 'Caio' }]])).toEqual([...page, { id: 9, name: 'Caio' }]);
	});

	test('a list of 20 000 contacts whose first field is the same (true) for all: each distinct one stays once', () => {
		const contacts = Array.from({ length: 20_000 }, (_, i) => ({ active: true, phoneNumber: String(5511900000000 + i) }));
		const out = taken([contacts.slice(0, 12_000), contacts.slice(10_000)]);
		expect(out).toHaveLength(20_000);
		expect(out).toEqual(contacts);
	});
});
