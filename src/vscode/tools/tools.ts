import * as vscode from 'vscode';
import type { ContextTool, ToolDeps } from './contextTool';
import {
  ListSubscriptionsTool,
  SubscribeFileTool,
  SubscribeMemoryTool,
  UnsubscribeAllTool,
  UnsubscribeTool,
} from './subscriptionTools';
import { GoverningDecisionsTool } from './governingTool';
import { ContextSuggestTool } from './suggestTool';
import { toolNames } from './toolNames';

export type { ToolDeps };

/** Registers the seven language-model tools for agent mode; state-changing ones ask for confirmation first. */
export function registerTools(context: vscode.ExtensionContext, deps: ToolDeps): void {
  const tools: [string, ContextTool<Record<string, unknown>>][] = [
    [toolNames.subscribeFile, new SubscribeFileTool(deps)],
    [toolNames.subscribeMemory, new SubscribeMemoryTool(deps)],
    [toolNames.unsubscribe, new UnsubscribeTool(deps)],
    [toolNames.unsubscribeAll, new UnsubscribeAllTool(deps)],
    [toolNames.listSubscriptions, new ListSubscriptionsTool(deps)],
    [toolNames.contextSuggest, new ContextSuggestTool(deps)],
    [toolNames.governingDecisions, new GoverningDecisionsTool(deps)],
  ];
  for (const [name, tool] of tools) context.subscriptions.push(vscode.lm.registerTool(name, tool));
}
