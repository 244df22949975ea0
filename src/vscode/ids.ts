/** Identifiers shared with package.json contributions. */
export const ids = {
  container: 'proactiveContext',
  view: 'proactiveContext.suggestions',
  participant: 'proactive-context.context',
  mcpProvider: 'proactiveContext.mcp',
  configSection: 'proactiveContext',
  command: {
    refresh: 'proactiveContext.refresh',
    reindex: 'proactiveContext.reindex',
    subscribeFile: 'proactiveContext.subscribeFile',
    subscribeSelection: 'proactiveContext.subscribeSelection',
    subscribeSymbol: 'proactiveContext.subscribeSymbol',
    subscribePattern: 'proactiveContext.subscribePattern',
    subscribeMemory: 'proactiveContext.subscribeMemory',
    unsubscribe: 'proactiveContext.unsubscribe',
    unsubscribeAll: 'proactiveContext.unsubscribeAll',
    listSubscriptions: 'proactiveContext.listSubscriptions',
    recordDecision: 'proactiveContext.recordDecision',
    consolidateMemory: 'proactiveContext.consolidateMemory',
    showMetrics: 'proactiveContext.showMetrics',
    showLog: 'proactiveContext.showLog',
    watchFile: 'proactiveContext.watchFile',
    watchFolder: 'proactiveContext.watchFolder',
    watchSymbol: 'proactiveContext.watchSymbol',
    watchTopic: 'proactiveContext.watchTopic',
    unwatch: 'proactiveContext.unwatch',
    showPanel: 'proactiveContext.showPanel',
    openDecisionRecord: 'proactiveContext.openDecisionRecord',
    showChatPrompt: 'proactiveContext.showChatPrompt',
    /** The walkthrough's "Ask @context": a real query when a chat model can answer, an explanation otherwise. */
    askContext: 'proactiveContext.askContext',
    setTeamIndexToken: 'proactiveContext.setTeamIndexToken',
  },
  context: {
    /** Set once the user opened an item from the panel (a walkthrough step completes on it). */
    openedItem: 'proactiveContext.openedItem',
  },
} as const;
