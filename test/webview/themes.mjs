// The theme variables VS Code puts on a webview's <html>, for a Dark Modern and a Light Modern
// workbench. Only the ones the panel uses, plus the font settings of the default webview styles.

const common = {
  'font-family':
    '-apple-system, BlinkMacSystemFont, "Segoe WPC", "Segoe UI", "Ubuntu", "Droid Sans", "DejaVu Sans", sans-serif',
  'font-size': '13px',
  'font-weight': 'normal',
  'editor-font-family': '"Droid Sans Mono", "DejaVu Sans Mono", monospace',
};

export const THEMES = {
  dark: {
    ...common,
    foreground: '#cccccc',
    descriptionForeground: '#9d9d9d',
    'icon-foreground': '#cccccc',
    focusBorder: '#0078d4',
    'sideBar-background': '#181818',
    'sideBarSectionHeader-foreground': '#cccccc',
    'sideBarSectionHeader-border': '#2b2b2b',
    'list-hoverBackground': '#2a2d2e',
    'list-activeSelectionBackground': '#04395e',
    'list-activeSelectionForeground': '#ffffff',
    'list-inactiveSelectionBackground': '#37373d',
    'list-focusOutline': '#0078d4',
    'badge-background': '#616161',
    'badge-foreground': '#f8f8f8',
    'button-background': '#0078d4',
    'button-foreground': '#ffffff',
    'button-hoverBackground': '#026ec1',
    'button-border': '#ffffff12',
    'button-secondaryBackground': '#313131',
    'button-secondaryForeground': '#cccccc',
    'button-secondaryHoverBackground': '#3c3c3c',
    'progressBar-background': '#0078d4',
    'textLink-foreground': '#4daafc',
    'textLink-activeForeground': '#4daafc',
    'editorWarning-foreground': '#cca700',
    'editorInfo-foreground': '#3794ff',
    errorForeground: '#f85149',
    'inputValidation-errorBorder': '#be1100',
    'toolbar-hoverBackground': '#5a5d5e50',
    'symbolIcon-namespaceForeground': '#cccccc',
    'symbolIcon-methodForeground': '#b180d7',
    'textBlockQuote-background': '#2b2b2b',
  },
  light: {
    ...common,
    foreground: '#3b3b3b',
    descriptionForeground: '#717171',
    'icon-foreground': '#424242',
    focusBorder: '#005fb8',
    'sideBar-background': '#f8f8f8',
    'sideBarSectionHeader-foreground': '#3b3b3b',
    'sideBarSectionHeader-border': '#e5e5e5',
    'list-hoverBackground': '#f2f2f2',
    'list-activeSelectionBackground': '#e8e8e8',
    'list-activeSelectionForeground': '#000000',
    'list-inactiveSelectionBackground': '#e4e6f1',
    'list-focusOutline': '#005fb8',
    'badge-background': '#cccccc',
    'badge-foreground': '#3b3b3b',
    'button-background': '#005fb8',
    'button-foreground': '#ffffff',
    'button-hoverBackground': '#0258a8',
    'button-border': '#0000001a',
    'button-secondaryBackground': '#e5e5e5',
    'button-secondaryForeground': '#3b3b3b',
    'button-secondaryHoverBackground': '#cccccc',
    'progressBar-background': '#005fb8',
    'textLink-foreground': '#005fb8',
    'textLink-activeForeground': '#005fb8',
    'editorWarning-foreground': '#bf8803',
    'editorInfo-foreground': '#1a85ff',
    errorForeground: '#f85149',
    'inputValidation-errorBorder': '#be1100',
    'toolbar-hoverBackground': '#b8b8b850',
    'symbolIcon-namespaceForeground': '#424242',
    'symbolIcon-methodForeground': '#652d90',
    'textBlockQuote-background': '#f2f2f2',
  },
};

// High Contrast (dark): no fills, borders and outlines in the contrast colours instead.
THEMES.hc = {
  ...common,
  foreground: '#ffffff',
  descriptionForeground: '#ffffffb3',
  'icon-foreground': '#ffffff',
  focusBorder: '#f38518',
  contrastBorder: '#6fc3df',
  contrastActiveBorder: '#f38518',
  'sideBar-background': '#000000',
  'sideBarSectionHeader-foreground': '#ffffff',
  'sideBarSectionHeader-border': '#6fc3df',
  'list-focusOutline': '#f38518',
  'badge-background': '#000000',
  'badge-foreground': '#ffffff',
  'button-background': '#000000',
  'button-foreground': '#ffffff',
  'button-border': '#6fc3df',
  'button-secondaryBackground': '#000000',
  'button-secondaryForeground': '#ffffff',
  'progressBar-background': '#6fc3df',
  'textLink-foreground': '#21a6ff',
  'editorWarning-foreground': '#ffd370',
  errorForeground: '#f48771',
};

/** The class VS Code puts on a webview's body for each kind of theme. */
export const BODY_CLASS = { light: 'vscode-light', dark: 'vscode-dark', hc: 'vscode-high-contrast' };

/** A stylesheet standing in for the variables VS Code injects. */
export function themeCss(name) {
  const vars = Object.entries(THEMES[name])
    .map(([k, v]) => `  --vscode-${k}: ${v};`)
    .join('\n');
  return `html {\n${vars}\n  background: var(--vscode-sideBar-background);\n  color-scheme: ${name === 'light' ? 'light' : 'dark'};\n}\n`;
}
