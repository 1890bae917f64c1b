// Which words flag a note in an event's messages: those of the event's organization. Subscribers take every
// organization's events, so a sender (and the AWS publisher, for the SNS e-mail body) looks the words up
// per event, from the config each runtime reads; the event itself carries no words.
import type { OrganizationConfig } from '../config/configSchema.js';
import { DEFAULT_HIGHLIGHT_WORDS } from '../events/noteHighlights.js';
import type { NotifierEvent } from '../events/notifierEvent.js';

/** The highlight words of an organization, by its id; the defaults for one the config does not have. */
export type HighlightWordsOf = (organizationId: string) => readonly string[];

export function highlightWordsOf(
  organizations: readonly Pick<OrganizationConfig, 'id' | 'highlightWords'>[],
): HighlightWordsOf {
  const byId = new Map(
    organizations.map((organization) => [organization.id.toLowerCase(), organization.highlightWords]),
  );
  return (organizationId) => byId.get(organizationId.toLowerCase()) ?? DEFAULT_HIGHLIGHT_WORDS;
}

/** The defaults for every organization: for tests, and where no config is at hand. */
export const defaultHighlightWords: HighlightWordsOf = () => DEFAULT_HIGHLIGHT_WORDS;

/** The words for `event`'s organization. */
export function highlightWordsFor(event: NotifierEvent, words: HighlightWordsOf): readonly string[] {
  return words(event.data.organization.id);
}
