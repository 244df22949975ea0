/** Language-model tool names, as declared in package.json `languageModelTools`. */
export const toolNames = {
  subscribeFile: 'subscribe_file',
  subscribeMemory: 'subscribe_memory',
  unsubscribe: 'unsubscribe',
  unsubscribeAll: 'unsubscribe_all',
  listSubscriptions: 'list_subscriptions',
  contextSuggest: 'context_suggest',
  governingDecisions: 'governing_decisions',
} as const;
