import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DocsSource } from '../../../src/core/sources/docs/docsSource';
import { openWorkspace, type Workspace } from './sourceFixtures';

export interface DocsWorkspace {
  /** The workspace of the running test. */
  readonly ws: Workspace;
  /** The docs source over it. */
  readonly source: DocsSource;
  /** Writes a file of the workspace (not committed: the docs source reads the work tree). */
  write: (path: string, text: string) => void;
}

/** A fresh empty workspace and docs source for each test of the calling `describe`. */
export function docsWorkspace(): DocsWorkspace {
  let ws: Workspace | undefined;
  let source: DocsSource | undefined;
  beforeEach(async () => {
    ws = await openWorkspace();
    source = new DocsSource({ root: ws.root, store: ws.store });
  });
  afterEach(() => ws?.dispose());
  return {
    get ws() {
      return ws!;
    },
    get source() {
      return source!;
    },
    write: (path, text) => {
      mkdirSync(dirname(join(ws!.root, path)), { recursive: true });
      writeFileSync(join(ws!.root, path), text);
    },
  };
}
