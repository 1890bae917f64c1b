// The Slack workspace behind the Web API stand-in (slackWebApiServer.ts), held in memory: its bot tokens,
// its channels with their messages and threads as they stand now, and the mishaps a test or a person
// brings about by hand (a message deleted, a token revoked, the app removed from a channel, a channel
// archived, a 429 forced). It does no I/O; each method returns what Slack would answer. Listeners
// hear every change to a channel's messages, so a view can redraw what changed.
import { randomBytes } from 'node:crypto';

/** One message as the channel shows it now: the latest text and blocks, `edited` once updated. */
export interface SlackStoredMessage {
  ts: string;
  channel: string;
  text: string;
  blocks: unknown[] | undefined;
  /** The parent's ts for a reply; absent for a top-level message. */
  threadTs?: string;
  /** A reply also shown in the channel. */
  replyBroadcast: boolean;
  /** The ts of the last edit, once chat.update changed it. */
  editedTs?: string;
  /** False once the app may no longer edit it (another user's message, as Slack sees it). */
  editable: boolean;
}

export interface SlackChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  isArchived: boolean;
  /** Whether the app's bot user is a member: it may post only then (no chat:write.public). */
  botIsMember: boolean;
  /** Top-level messages and replies, by ts, oldest first. */
  messages: Map<string, SlackStoredMessage>;
}

export type SlackTokenState = 'active' | 'revoked' | 'inactive';

/** Who the bot is: what auth.test answers. */
export const SLACK_IDENTITY = {
  team: 'Simulated Kitchen Workspace',
  teamId: 'T0SIMULATE',
  user: 'kitchen-board',
  userId: 'U0KITCHBOT',
  botId: 'B0KITCHBOT',
  appId: 'A0KITCHAPP',
} as const;

/** The channel the simulator's config posts the board to. */
export const DEFAULT_SLACK_CHANNEL = { id: 'C0KITCHEN1', name: 'kitchen' } as const;

export type SlackChange =
  | { kind: 'posted'; message: SlackStoredMessage }
  | { kind: 'updated'; message: SlackStoredMessage }
  | { kind: 'deleted'; message: SlackStoredMessage };

/** What one API call answers: Slack's `{ ok: false, error }` with HTTP 200, or the method's fields. */
export type SlackAnswer = { ok: true; [field: string]: unknown } | { ok: false; error: string };

// A message's ts: "<seconds>.<6 digits>", a valid one as Slack writes it.
const TS_FORM = /^\d{10}\.\d{6}$/;

export class SlackWorkspace {
  readonly #tokens = new Map<string, SlackTokenState>();
  readonly #channels = new Map<string, SlackChannel>();
  readonly #listeners = new Set<(change: SlackChange) => void>();
  readonly #now: () => number;
  #lastTsMicros = 0;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
    this.addChannel({ ...DEFAULT_SLACK_CHANNEL });
  }

  /** A new bot token (`xoxb-simulator-…`) that the API accepts until it is revoked. */
  issueToken(): string {
    const token = `xoxb-simulator-${randomBytes(12).toString('hex')}`;
    this.#tokens.set(token, 'active');
    return token;
  }

  /** Calls with it now answer `token_revoked` (or `account_inactive`, as for a deactivated app). */
  revokeToken(token: string, as: Exclude<SlackTokenState, 'active'> = 'revoked'): void {
    if (!this.#tokens.has(token)) throw new Error('no such token in the simulated workspace');
    this.#tokens.set(token, as);
  }

  /** The error a call with this token gets, or undefined when it may go on. */
  authError(token: string | undefined): string | undefined {
    if (token === undefined || token === '') return 'not_authed';
    const state = this.#tokens.get(token);
    if (state === undefined) return 'invalid_auth';
    if (state === 'revoked') return 'token_revoked';
    if (state === 'inactive') return 'account_inactive';
    return undefined;
  }

  addChannel(channel: {
    id: string;
    name: string;
    isPrivate?: boolean;
    botIsMember?: boolean;
  }): SlackChannel {
    const added: SlackChannel = {
      id: channel.id,
      name: channel.name,
      isPrivate: channel.isPrivate ?? false,
      isArchived: false,
      botIsMember: channel.botIsMember ?? true,
      messages: new Map(),
    };
    this.#channels.set(channel.id, added);
    return added;
  }

  channel(id: string): SlackChannel | undefined {
    return this.#channels.get(id);
  }

  channels(): SlackChannel[] {
    return [...this.#channels.values()];
  }

  /** The app is removed from the channel (or invited back): posting answers `not_in_channel` meanwhile. */
  setBotMembership(channelId: string, member: boolean): void {
    this.#existing(channelId).botIsMember = member;
  }

  setArchived(channelId: string, archived: boolean): void {
    this.#existing(channelId).isArchived = archived;
  }

  /** Someone deleted it in Slack: editing it answers `message_not_found`. Its replies stay. */
  deleteMessage(channelId: string, ts: string): void {
    const channel = this.#existing(channelId);
    const message = channel.messages.get(ts);
    if (!message) throw new Error(`no message ${ts} in ${channelId}`);
    channel.messages.delete(ts);
    this.#emit({ kind: 'deleted', message });
  }

  /** The app may no longer edit it: chat.update answers `cant_update_message`. */
  lockMessage(channelId: string, ts: string): void {
    const message = this.#existing(channelId).messages.get(ts);
    if (!message) throw new Error(`no message ${ts} in ${channelId}`);
    message.editable = false;
  }

  /** A top-level message of the channel and its replies, oldest first. */
  thread(channelId: string, ts: string): { parent?: SlackStoredMessage; replies: SlackStoredMessage[] } {
    const messages = [...(this.#channels.get(channelId)?.messages.values() ?? [])];
    return {
      parent: messages.find((message) => message.ts === ts && message.threadTs === undefined),
      replies: messages.filter((message) => message.threadTs === ts),
    };
  }

  onChange(listener: (change: SlackChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** chat.postMessage, once the token and the rate limit let it through. */
  postMessage(args: Record<string, unknown>): SlackAnswer {
    const found = this.#postable(args.channel);
    if ('error' in found) return found;
    const content = contentOf(args);
    if ('error' in content) return content;
    const channel = found.channel;
    let threadTs: string | undefined;
    if (args.thread_ts !== undefined && args.thread_ts !== '') {
      if (typeof args.thread_ts !== 'string' || !TS_FORM.test(args.thread_ts))
        return { ok: false, error: 'invalid_thread_ts' };
      // A reply's ts names its parent's thread, as Slack keeps threads one level deep.
      threadTs = channel.messages.get(args.thread_ts)?.threadTs ?? args.thread_ts;
    }
    const message: SlackStoredMessage = {
      ts: this.#nextTs(),
      channel: channel.id,
      text: content.text,
      blocks: content.blocks,
      replyBroadcast: threadTs !== undefined && truthy(args.reply_broadcast),
      editable: true,
      ...(threadTs === undefined ? {} : { threadTs }),
    };
    channel.messages.set(message.ts, message);
    this.#emit({ kind: 'posted', message });
    return { ok: true, channel: channel.id, ts: message.ts, message: messageJson(message) };
  }

  /** chat.update: the message's text and blocks replaced (blocks kept when the call has none). */
  update(args: Record<string, unknown>): SlackAnswer {
    const found = this.#postable(args.channel);
    if ('error' in found) return found;
    if (typeof args.ts !== 'string' || args.ts === '') return { ok: false, error: 'message_not_found' };
    const message = found.channel.messages.get(args.ts);
    if (!message) return { ok: false, error: 'message_not_found' };
    if (!message.editable) return { ok: false, error: 'cant_update_message' };
    const content = contentOf(args, message.blocks);
    if ('error' in content) return content;
    message.text = content.text;
    message.blocks = content.blocks;
    message.editedTs = this.#nextTs();
    this.#emit({ kind: 'updated', message });
    return {
      ok: true,
      channel: message.channel,
      ts: message.ts,
      text: message.text,
      message: messageJson(message),
    };
  }

  authTest(): SlackAnswer {
    return {
      ok: true,
      url: 'https://simulated-kitchen.slack.com/',
      team: SLACK_IDENTITY.team,
      user: SLACK_IDENTITY.user,
      team_id: SLACK_IDENTITY.teamId,
      user_id: SLACK_IDENTITY.userId,
      bot_id: SLACK_IDENTITY.botId,
      is_enterprise_install: false,
    };
  }

  /**
   * conversations.info: a public channel is shown whether or not the app is in it (`is_member` says),
   * a private one only to its members, as channels:read and groups:read allow.
   */
  conversationsInfo(args: Record<string, unknown>): SlackAnswer {
    const channel = typeof args.channel === 'string' ? this.#channels.get(args.channel) : undefined;
    if (!channel || (channel.isPrivate && !channel.botIsMember))
      return { ok: false, error: 'channel_not_found' };
    return {
      ok: true,
      channel: {
        id: channel.id,
        name: channel.name,
        is_channel: !channel.isPrivate,
        is_group: channel.isPrivate,
        is_private: channel.isPrivate,
        is_archived: channel.isArchived,
        is_member: channel.botIsMember,
        created: 1_700_000_000,
      },
    };
  }

  /** The channel a chat call names, or the error Slack gives for it. */
  #postable(id: unknown): { channel: SlackChannel } | { ok: false; error: string } {
    const channel = typeof id === 'string' ? this.#channels.get(id) : undefined;
    if (!channel || (channel.isPrivate && !channel.botIsMember))
      return { ok: false, error: 'channel_not_found' };
    if (channel.isArchived) return { ok: false, error: 'is_archived' };
    if (!channel.botIsMember) return { ok: false, error: 'not_in_channel' };
    return { channel };
  }

  #existing(id: string): SlackChannel {
    const channel = this.#channels.get(id);
    if (!channel) throw new Error(`no channel ${id} in the simulated workspace`);
    return channel;
  }

  /** Unique and increasing, near the clock: what a client keys its messages by. */
  #nextTs(): string {
    const micros = Math.max(this.#lastTsMicros + 1, Math.floor(this.#now()) * 1000);
    this.#lastTsMicros = micros;
    return `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, '0')}`;
  }

  #emit(change: SlackChange): void {
    for (const listener of this.#listeners) listener(change);
  }
}

/** Slack's limits on a message: text up to 40,000 characters, at most 50 blocks. */
const MAX_TEXT_CHARS = 40_000;
const MAX_BLOCKS = 50;

function contentOf(
  args: Record<string, unknown>,
  keptBlocks?: unknown[],
): { text: string; blocks: unknown[] | undefined } | { ok: false; error: string } {
  let blocks: unknown = args.blocks;
  // A form-encoded call carries blocks as a JSON string.
  if (typeof blocks === 'string') {
    try {
      blocks = blocks === '' ? undefined : JSON.parse(blocks);
    } catch {
      return { ok: false, error: 'invalid_blocks_format' };
    }
  }
  if (blocks !== undefined && !Array.isArray(blocks)) return { ok: false, error: 'invalid_blocks_format' };
  if (Array.isArray(blocks)) {
    if (blocks.length > MAX_BLOCKS) return { ok: false, error: 'invalid_blocks' };
    if (
      !blocks.every(
        (block) =>
          typeof block === 'object' &&
          block !== null &&
          typeof (block as { type?: unknown }).type === 'string',
      )
    )
      return { ok: false, error: 'invalid_blocks' };
  }
  const text = typeof args.text === 'string' ? args.text : '';
  const shown = (blocks as unknown[] | undefined) ?? keptBlocks;
  if (text === '' && (shown === undefined || shown.length === 0)) return { ok: false, error: 'no_text' };
  if (text.length > MAX_TEXT_CHARS) return { ok: false, error: 'msg_too_long' };
  return { text, blocks: shown };
}

function truthy(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 1;
}

function messageJson(message: SlackStoredMessage): Record<string, unknown> {
  return {
    type: 'message',
    user: SLACK_IDENTITY.userId,
    bot_id: SLACK_IDENTITY.botId,
    app_id: SLACK_IDENTITY.appId,
    text: message.text,
    ts: message.ts,
    ...(message.blocks === undefined ? {} : { blocks: message.blocks }),
    ...(message.threadTs === undefined ? {} : { thread_ts: message.threadTs }),
    ...(message.replyBroadcast ? { subtype: 'thread_broadcast' } : {}),
    ...(message.editedTs === undefined
      ? {}
      : { edited: { user: SLACK_IDENTITY.userId, ts: message.editedTs } }),
  };
}
