import * as assert from 'node:assert/strict';
import { noChatModel, noDecisionRecords } from '../../../src/core/api/messages';

describe('messages that teach the next step', () => {
  it('without a chat model, says what could not be done and how to get and pick a model', () => {
    const text = noChatModel('answer @context');
    assert.match(text, /^No language model is available to answer @context\./);
    assert.match(text, /sign in to an extension that provides chat models \(for example GitHub Copilot Chat\)/);
    assert.match(text, /“Chat: Manage Language Models”/);
    assert.match(text, /pick it in the chat view's model picker and try again\.$/);
  });

  it('without decision records, names the folders looked in and both ways forward', () => {
    const search = {
      folders: ['docs/adr', 'adr'],
      conventions: ['docs/adr'],
      setting: 'proactiveContext.decisionFolders',
      records: 0,
    };
    assert.deepEqual(noDecisionRecords(search), {
      heading: 'No decision records yet',
      detail:
        'Looked in docs/adr, adr, which hold no decision records. Record a Decision… writes the first one there as an ADR, or point the “proactiveContext.decisionFolders” setting at the folders where your team keeps them.',
    });
  });
});
