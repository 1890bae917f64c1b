// The poll state's size policy (pure): how many bytes its DynamoDB item takes, measured from above the way
// DynamoDB counts them, and what is forgotten, in which order, when it would not fit. The DynamoDB store
// applies it before every save, so an organization too large for one item is trimmed or refused with a
// line naming the setting to lower, never refused by DynamoDB cycle after cycle.
import { prepSummaryKeyDate } from '../detect/planPrepSummaries.js';
import { StateStoreError } from './errors.js';
import type { PollState } from './pollState.js';

/** DynamoDB's most bytes in one item (400 KB), attribute names and values together. */
export const DYNAMO_ITEM_MAX_BYTES = 409_600;

/**
 * Room kept in the poll state's item for what is not the state: its keys, its kind, the fencing token of
 * the lease term that saved it, and whatever a later version adds beside them. (The lease has an item of
 * its own; the lease attributes older versions left on this one are removed by the save that fits it.)
 */
export const POLL_STATE_ITEM_RESERVE_BYTES = 2_048;

/** The most the `state` attribute may take, its name included. */
export const POLL_STATE_MAX_BYTES = DYNAMO_ITEM_MAX_BYTES - POLL_STATE_ITEM_RESERVE_BYTES;

/**
 * The size of a value as a DynamoDB attribute value, from above: strings in UTF-8; numbers at 2 bytes
 * plus one per two digits (DynamoDB: about half the digits, plus one); booleans and null 1 byte; lists and
 * maps 3 bytes, plus 1 per element, plus their elements (a map's keys counted as attribute names).
 * Undefined values are left out, as the document client marshals them (removeUndefinedValues).
 */
export function attributeValueBytes(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (typeof value === 'number') return Math.min(21, 2 + Math.ceil(String(Math.abs(value)).length / 2));
  if (Array.isArray(value)) {
    let bytes = 3;
    for (const element of value) if (element !== undefined) bytes += 1 + attributeValueBytes(element);
    return bytes;
  }
  if (typeof value === 'object') {
    let bytes = 3;
    for (const [name, element] of Object.entries(value)) {
      if (element !== undefined) bytes += 1 + Buffer.byteLength(name, 'utf8') + attributeValueBytes(element);
    }
    return bytes;
  }
  throw new TypeError(`no DynamoDB size for a ${typeof value}`);
}

/** The `state` attribute's bytes: its name and the state as a map. */
export function pollStateBytes(state: PollState): number {
  return Buffer.byteLength('state') + attributeValueBytes(state);
}

/** What fitting the state did: the state to save, and how much was forgotten to make it fit. */
export interface FittedPollState {
  state: PollState;
  /** Its bytes as saved (pollStateBytes). */
  bytes: number;
  /** What it would have taken untrimmed. */
  untrimmedBytes: number;
  /** The prep summaries whose heard items were forgotten, by key, oldest pickup date first; empty: none. */
  forgotHeardItems: string[];
}

/**
 * The state within `maxBytes`. When it is over, what can be forgotten without a false, lost or doubled
 * order event goes first: the heard items of prep summaries (what a kitchen last heard, the `from` of its
 * prep_changed), oldest pickup date first, so past days, whose kitchens have cooked, go before today.
 * Such a summary gets no prep_changed, as one whose totals outgrew HEARD_ITEMS_MAX_BYTES. Nothing else is
 * trimmed: coverage tells new orders from old ones, the summaries' records which closings were announced,
 * the listings and sweep the pace, and each is bounded by the window and the establishments. A state still
 * over is refused with PollStateTooLargeError, naming the setting that makes it large.
 */
export function fitPollState(state: PollState, maxBytes = POLL_STATE_MAX_BYTES): FittedPollState {
  const untrimmedBytes = pollStateBytes(state);
  if (untrimmedBytes <= maxBytes) {
    return { state, bytes: untrimmedBytes, untrimmedBytes, forgotHeardItems: [] };
  }
  // A map's bytes are the sum of its entries', so dropping one entry takes exactly its own bytes off.
  const heard = Object.entries(state.prepSummaries)
    .filter(([, summary]) => summary.items !== undefined)
    .sort(([a], [b]) => compareText(prepSummaryKeyDate(a), prepSummaryKeyDate(b)) || compareText(a, b));
  let bytes = untrimmedBytes;
  const forgotHeardItems: string[] = [];
  for (const [key, summary] of heard) {
    if (bytes <= maxBytes) break;
    bytes -= 1 + Buffer.byteLength('items') + attributeValueBytes(summary.items);
    forgotHeardItems.push(key);
  }
  const prepSummaries = { ...state.prepSummaries };
  for (const key of forgotHeardItems) {
    const recorded = prepSummaries[key];
    if (recorded === undefined) continue;
    const { items: _forgotten, ...summary } = recorded;
    prepSummaries[key] = summary;
  }
  const trimmed = { ...state, prepSummaries };
  if (bytes > maxBytes) throw new PollStateTooLargeError(trimmed, bytes, maxBytes);
  return { state: trimmed, bytes, untrimmedBytes, forgotHeardItems };
}

/** One line for the log: what was forgotten from whose state, and why. */
export function trimmedPollStateLine(organizationId: string, fitted: FittedPollState): string {
  const count = fitted.forgotHeardItems.length;
  return (
    `poll state of organization ${organizationId} trimmed to ${kilobytes(fitted.bytes)} ` +
    `(${kilobytes(fitted.untrimmedBytes)} untrimmed, over DynamoDB's 400 KB item): forgot what the kitchens ` +
    `heard for ${count} prep summar${count === 1 ? 'y' : 'ies'} from ${prepSummaryKeyDate(fitted.forgotHeardItems[0] ?? '')}, ` +
    `which get no prep_changed now; lower organizations[].window.daysBack to keep them`
  );
}

/** The parts of the state a setting makes large, with that setting, for the refusal's advice. */
const SETTING_OF_PART: Partial<Record<keyof PollState, string>> = {
  coverage: 'organizations[].window (daysBack and daysAhead), or list fewer organizations[].establishments',
  listings: 'organizations[].window (daysBack and daysAhead), or list fewer organizations[].establishments',
  prepSummaries: 'organizations[].window.daysBack, or list fewer organizations[].establishments',
  establishments: 'organizations[].establishments (the establishments watched)',
};

/**
 * The poll state cannot be made to fit DynamoDB's item even with everything forgettable forgotten: nothing
 * is written (DynamoDB would refuse it every cycle). Not retryable: the config must change; the message
 * names the organization, the largest part and the setting to lower.
 */
export class PollStateTooLargeError extends StateStoreError {
  /** The state's bytes once trimmed. */
  readonly bytes: number;
  /** The part of the state taking the most bytes. */
  readonly largestPart: keyof PollState;
  /** The setting to lower. */
  readonly setting: string;

  constructor(state: PollState, bytes: number, maxBytes: number) {
    const [largestPart] = (Object.keys(state) as (keyof PollState)[])
      .map((part) => [part, attributeValueBytes(state[part])] as const)
      .sort((a, b) => b[1] - a[1])[0] ?? ['coverage'];
    const setting = SETTING_OF_PART[largestPart] ?? 'organizations[].window (daysBack and daysAhead)';
    super(
      'savePollState',
      state.organizationId,
      `the poll state would take ${kilobytes(bytes)}, over the ${kilobytes(maxBytes)} one DynamoDB item holds, ` +
        `most of it ${largestPart}; lower ${setting}`,
    );
    this.bytes = bytes;
    this.largestPart = largestPart;
    this.setting = setting;
  }
}

function kilobytes(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KB`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
