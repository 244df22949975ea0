import { readFileSync } from 'node:fs';

/** A label file that cannot be used: the message names the file and what is wrong. */
export class LabelsError extends Error {}

export const isText = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;
export const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isText);

/** Reads a label file as a JSON object, and a maker of errors that name the file. */
export function readLabelObject(file: string): { d: Record<string, unknown>; bad: (what: string) => LabelsError } {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new LabelsError(`cannot read labels ${file}: ${(err as Error).message}`);
  }
  const bad = (what: string) => new LabelsError(`labels ${file}: ${what}`);
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw bad('expected a JSON object');
  return { d: data as Record<string, unknown>, bad };
}
