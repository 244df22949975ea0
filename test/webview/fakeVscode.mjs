// The few parts of the `vscode` module SuggestionsViewProvider touches, so its logic runs in Node.
// Only the behaviour the provider relies on is modelled; everything else is left out on purpose.

export class Uri {
  constructor(path) {
    this.path = path;
  }
  static file(path) {
    return new Uri(path);
  }
  static joinPath(base, ...segments) {
    return new Uri([base.path, ...segments].join('/'));
  }
  toString() {
    return `https://file+.vscode-resource.vscode-cdn.net${this.path}`;
  }
}

export class EventEmitter {
  listeners = new Set();
  event = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value) {
    for (const l of [...this.listeners]) l(value);
  }
  dispose() {
    this.listeners.clear();
  }
}

export const registered = [];
export const executed = [];

export const window = {
  registerWebviewViewProvider(viewType, provider, options) {
    const entry = {
      viewType,
      provider,
      options,
      disposed: false,
      dispose() {
        entry.disposed = true;
      },
    };
    registered.push(entry);
    return entry;
  },
};

export const commands = {
  async executeCommand(...args) {
    executed.push(args);
  },
};

/** A webview view as VS Code hands it to resolveWebviewView. */
export class FakeWebviewView {
  visible = true;
  description = undefined;
  badge = undefined;
  posted = [];
  visibility = new EventEmitter();
  disposal = new EventEmitter();
  messages = new EventEmitter();
  shown = [];
  onDidChangeVisibility = this.visibility.event;
  onDidDispose = this.disposal.event;
  webview = {
    options: {},
    html: '',
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    asWebviewUri: (uri) => uri,
    postMessage: async (m) => {
      this.posted.push(m);
      return true;
    },
    onDidReceiveMessage: this.messages.event,
  };
  show(preserveFocus) {
    this.shown.push(preserveFocus);
  }
  setVisible(visible) {
    this.visible = visible;
    this.visibility.fire();
  }
}

export class FakeLog {
  lines = [];
  trace(m) {
    this.lines.push(['trace', m]);
  }
  debug(m) {
    this.lines.push(['debug', m]);
  }
  info(m) {
    this.lines.push(['info', m]);
  }
  warn(m) {
    this.lines.push(['warn', m]);
  }
  error(m) {
    this.lines.push(['error', String(m)]);
  }
}
