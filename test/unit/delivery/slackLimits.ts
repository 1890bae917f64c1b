// Slack's limits as test assertions, shared by the tests of every Slack message this product writes.
import { expect } from 'vitest';
import {
  type MrkdwnText,
  SLACK_LIMITS,
  type SlackBlock,
  type SlackMessage,
} from '../../../shared/delivery/slack/slackBlocks.js';

export function allTexts(block: SlackBlock): string[] {
  if (block.type === 'header') return [block.text.text];
  if (block.type === 'context') return block.elements.map((element: MrkdwnText) => element.text);
  return block.fields ? block.fields.map((field) => field.text) : [block.text.text];
}

/** Every limit Slack enforces on a message, asserted at once. */
export function expectWithinSlackLimits(msg: SlackMessage): void {
  expect(msg.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
  expect(msg.text.length).toBeGreaterThan(0);
  expect(msg.text.length).toBeLessThanOrEqual(SLACK_LIMITS.fallbackText);
  for (const block of msg.blocks) {
    if (block.type === 'header') {
      expect(block.text.type).toBe('plain_text');
      expect(block.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
    } else if (block.type === 'section' && block.fields) {
      expect(block.fields.length).toBeLessThanOrEqual(SLACK_LIMITS.fields);
      for (const field of block.fields) expect(field.text.length).toBeLessThanOrEqual(SLACK_LIMITS.fieldText);
    } else if (block.type === 'section') {
      expect(block.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    } else {
      expect(block.elements.length).toBeLessThanOrEqual(10);
      for (const element of block.elements) {
        expect(element.text.length).toBeLessThanOrEqual(SLACK_LIMITS.contextText);
      }
    }
    for (const text of allTexts(block)) expect(text.length).toBeGreaterThan(0);
  }
}
