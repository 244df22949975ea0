/**
 * Plans, evolution reports, retrospectives, roadmaps and audits describe work to do or done at one
 * time, not the code as it is: a step of an implementation plan that names a class is no guide to
 * editing it, nor is a QA finding ranked "High" that names a file. Folders: `plans/`, `planning/`,
 * `evolution/`, `retro/`, `retrospectives/`, `roadmap/`, `reports/`, `audits/`, `qa/`, `tech-debt/`.
 */
const PLANNING_DIR =
  /(?:^|\/)(?:plans?|planning|evolution|retros?|retrospectives?|roadmaps?|reports?|audits?|qa|tech[-_]?debt)\//i;
/** File names: `market-data-services-plan.md`, `evolution-report.md`, `ROADMAP.md`, `retro-2024-03.md`. */
const PLANNING_NAME = /(?:^|[-_. ])(?:plan|report|roadmap|retro|retrospective)(?:[-_. ]|$)/i;

/**
 * Proposals describe a change as it was planned: an RFC (`docs/rfc/0012-mcp-server-extension.md`),
 * a design proposal (`docs/proposals/`), a numbered feature spec (`specs/0026-outbox-archiver/`, as
 * spec-driven tools write them). What was built is in the code and its records; the plan's steps
 * name the classes they touched, and read as if the plan were still to do.
 */
const PROPOSAL_DIR =
  /(?:^|\/)(?:rfcs?|proposals?|design[-_]proposals|enhancements)\/|(?:^|\/)specs?\/\d{2,}[-_][^/]+\//i;

/** A planning, report or proposal document: never shown as documentation of the code. */
export function isPlanningDocument(path: string): boolean {
  if (PLANNING_DIR.test(path) || PROPOSAL_DIR.test(path)) return true;
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  return PLANNING_NAME.test(name);
}

/** Folders whose documents are input to tests (a fixture project's records and READMEs), not documentation. */
const TEST_DATA_DIR =
  /(?:^|\/)(?:__fixtures__|fixtures?|testdata|test-data|integration-tests?|e2e|__tests__|tests?)\//i;

/**
 * A document of a test's fixtures (`integration-tests/ro-project/docs/adr/first-adr.md`): its words
 * are there for a test to read. A README in a test folder still says how to run those tests.
 */
export function isTestDocument(path: string): boolean {
  return TEST_DATA_DIR.test(path) && !/(?:^|\/)readme(?:\.[a-z]+)?$/i.test(path);
}

/** `AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, `copilot-instructions.md`, anywhere. */
const ASSISTANT_INSTRUCTIONS = /(?:^|\/)(?:agents|claude|gemini|copilot-instructions)\.md$/i;

/**
 * Instructions for coding assistants tour the whole repository (its folders, commands and
 * conventions) for a reader that starts from nothing: each section names many places in passing and
 * is about none of them, and the README and guides say the same to people.
 */
export function isAssistantInstructions(path: string): boolean {
  return ASSISTANT_INSTRUCTIONS.test(path);
}
