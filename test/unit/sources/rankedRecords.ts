import type { DecisionRecord } from '../../../src/core/sources/decisions/decisionItems';

/** A parsed record with only what ranking reads. */
export function adr(n: number, title: string): DecisionRecord {
  return {
    number: n,
    title,
    status: 'accepted',
    statusText: 'Accepted',
    supersedes: [],
    deciders: [],
    sections: {},
    sectionList: [],
    body: '',
    style: 'nygard',
    titleStyle: 'numbered',
    summary: title,
    path: `docs/adr/${String(n).padStart(4, '0')}.md`,
    folder: 'docs/adr',
    area: [],
    label: String(n).padStart(4, '0'),
    mtimeMs: 0,
    size: 0,
    links: { paths: [], codeIdentifiers: new Map(), camelWords: new Map() },
  } as unknown as DecisionRecord;
}
