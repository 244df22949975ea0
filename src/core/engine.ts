import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveConfig, type CoreConfig } from './config';
import { nullLogger, type Logger } from './logger';
import { resolveStateDir } from './paths';
import { Store } from './store/store';

export interface EngineOptions {
  root: string;
  stateDir?: string;
  config?: Partial<CoreConfig>;
  logger?: Logger;
}

export class EngineError extends Error {}

/**
 * One workspace root's engine: the store and every source, shared by the extension, the CLI and
 * the MCP server. Adapters create one per root folder.
 */
export class Engine {
  private configSnapshot: CoreConfig;
  private readonly disposables: (() => void)[] = [];

  private constructor(
    readonly root: string,
    readonly stateDir: string,
    readonly store: Store,
    config: CoreConfig,
    readonly logger: Logger,
  ) {
    this.configSnapshot = config;
  }

  static async open(options: EngineOptions): Promise<Engine> {
    const root = resolve(options.root);
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new EngineError(`${root} is not a folder`);
    const logger = options.logger ?? nullLogger;
    const stateDir = resolveStateDir(root, options.stateDir);
    const store = await Store.open({ stateDir, logger });
    const engine = new Engine(root, stateDir, store, resolveConfig(options.config), logger);
    return engine;
  }

  get config(): CoreConfig {
    return this.configSnapshot;
  }

  setConfig(partial: Partial<CoreConfig>): void {
    this.configSnapshot = resolveConfig(partial);
  }

  onDispose(fn: () => void): void {
    this.disposables.push(fn);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0).reverse()) {
      try {
        d();
      } catch (err) {
        this.logger.warn(`Error while shutting down: ${(err as Error).message}`);
      }
    }
    this.store.dispose();
  }
}
