// The stop signals the launcher relays over its IPC channel: handed to the command that stops on them, or
// acted on as the signal itself when none does; the launcher told when they can be relayed; and the
// channel never the reason the process stays up.
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { listenToLauncher, onRelayedSignal } from '../../../cli/runtime/launcherSignals.js';

function launchedProcess() {
  const channel = { unref: vi.fn() };
  const fake = Object.assign(new EventEmitter(), { channel, pid: 4242, send: vi.fn(), kill: vi.fn() });
  listenToLauncher(fake as unknown as NodeJS.Process);
  return fake;
}

const relayed = (signal: string) => ({ type: 'meal-notifier:relayed-signal', signal });

describe('listenToLauncher', () => {
  it('tells the launcher it listens, once the listener is there, and keeps the channel from holding the process', () => {
    const launched = launchedProcess();
    expect(launched.send).toHaveBeenCalledWith({ type: 'meal-notifier:listening' });
    expect(launched.channel.unref).toHaveBeenCalled();
    expect(launched.listenerCount('message')).toBe(1);
  });

  it('hands a relayed SIGINT to the command that stops on it, not to the signal’s own action', () => {
    const launched = launchedProcess();
    const heard: string[] = [];
    const stopHearing = onRelayedSignal((signal) => heard.push(signal));
    try {
      launched.emit('message', relayed('SIGINT'));
      expect(heard).toEqual(['SIGINT']);
      expect(launched.kill).not.toHaveBeenCalled();
    } finally {
      stopHearing();
    }
  });

  it('acts on a relayed SIGTERM as on the signal itself when no command stops on it', () => {
    const launched = launchedProcess();
    launched.emit('message', relayed('SIGTERM'));
    expect(launched.kill).toHaveBeenCalledWith(4242, 'SIGTERM');
  });

  it('ignores any other message', () => {
    const launched = launchedProcess();
    launched.emit('message', relayed('SIGKILL'));
    launched.emit('message', { type: 'something else', signal: 'SIGINT' });
    launched.emit('message', 'SIGINT');
    expect(launched.kill).not.toHaveBeenCalled();
  });

  it('does nothing in a process no launcher started', () => {
    const alone = Object.assign(new EventEmitter(), { send: vi.fn() });
    listenToLauncher(alone as unknown as NodeJS.Process);
    expect(alone.listenerCount('message')).toBe(0);
    expect(alone.send).not.toHaveBeenCalled();
  });
});
