import { isGenericSymbol } from '../docs/textTerms';
import type { AdrLinks } from './adrLinks';

/** Longest text read for identifiers. */
const MAX_TEXT = 256 * 1024;
/** The identifiers a file's text holds, lower case (bounded, one linear pass). */
export function identifiersOf(text: string): Set<string> {
  const out = new Set<string>();
  const body = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  for (const m of body.matchAll(/[A-Za-z_$][\w$]{3,80}/g)) {
    out.add(m[0].toLowerCase());
  }
  return out;
}

/** Names of products written with an inner capital in prose (`JavaScript`, `GitHub`): no name of code. */
const PRODUCT_NAMES: ReadonlySet<string> = new Set(
  (
    'javascript typescript github gitlab openapi graphql postgresql mongodb mysql oauth youtube linkedin ' +
    'wordpress powershell nodejs dynamodb opensearch elasticsearch cloudfront cloudwatch bigquery devops ' +
    'sonarqube sonarcloud launchdarkly macos'
  ).split(' '),
);

/**
 * A name the record writes as code (`AppConfig`, `include_str`) that the file's code uses too: the
 * record speaks of this code, not only of the same words. Only a name shaped like code (an inner
 * capital, an underscore) counts, and not one of the workspace's own (`ownName`: a class defined in
 * another file, a package folder), which many files use whatever they do.
 */
export function usedIdentifier(
  links: AdrLinks,
  used: ReadonlySet<string>,
  ownName: (id: string) => boolean,
): string | undefined {
  for (const id of [...links.codeIdentifiers.keys(), ...links.camelWords.keys()]) {
    if (id.length < 4 || isGenericSymbol(id) || PRODUCT_NAMES.has(id.toLowerCase())) continue;
    if (!used.has(id.toLowerCase()) || ownName(id)) continue;
    if (/[a-z0-9][A-Z]|[A-Za-z]_[A-Za-z]/.test(id)) return id;
  }
  return undefined;
}
