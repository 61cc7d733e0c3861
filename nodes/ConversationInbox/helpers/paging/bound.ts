/**
 * The most elements one input item returns as separate items. n8n's routing engine (n8n-core
 * RoutingNode.runNode) passes each item's output on with `returnData.push(...items)`, one stack slot
 * per item: that call overflows the stack ("Maximum call stack size exceeded") at about 125 000
 * items on Node 20 and 24 with their default stack (measured through RoutingNode: docs/performance.md).
 * 100 000 leaves a fifth for a deeper call stack. A longer list comes out one item per page
 * (Options → One Item per Page) or stops with an error that says so, before any request past this.
 */
export const MAX_ITEMS_PER_INPUT_ITEM = 100_000;

/** A figure as the docs write it: 100000 → "100 000". */
export const asFigure = (value: number): string => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
