/**
 * Plans, evolution reports, retrospectives and roadmaps describe work to do or done at one time, not
 * the code as it is: a step of an implementation plan that names a class is no guide to editing it.
 * Folders: `plans/`, `planning/`, `evolution/`, `retro/`, `retrospectives/`, `roadmap/`.
 */
const PLANNING_DIR = /(?:^|\/)(?:plans?|planning|evolution|retros?|retrospectives?|roadmaps?)\//i;
/** File names: `market-data-services-plan.md`, `evolution-report.md`, `ROADMAP.md`, `retro-2024-03.md`. */
const PLANNING_NAME = /(?:^|[-_. ])(?:plan|report|roadmap|retro|retrospective)(?:[-_. ]|$)/i;

/** A planning or report document: never shown as documentation of the code. */
export function isPlanningDocument(path: string): boolean {
  if (PLANNING_DIR.test(path)) return true;
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  return PLANNING_NAME.test(name);
}
