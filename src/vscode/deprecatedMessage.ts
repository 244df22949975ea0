/**
 * The name of the API a "deprecated" diagnostic is about, from its message. Servers word it
 * differently; TypeScript says "'toCents' is deprecated." for a function and "The signature
 * '(id: string): Promise<…>' of 'getFlag' is deprecated." for an overload, where the first quoted
 * part is a type, not a name. No `vscode` import, so it is tested in Node.
 */
export function deprecatedName(message: string): string | undefined {
  const quoted = /['"`]([^'"`]{1,200})['"`] is deprecated/i.exec(message)?.[1];
  const name = /\bof ['"`]([^'"`]{1,200})['"`] is deprecated/i.exec(message)?.[1] ?? quoted;
  // A name is an identifier or a dotted path; anything with spaces, parentheses or a colon is a signature.
  return name && /^[\w$.#@-]+$/u.test(name) ? name : undefined;
}
