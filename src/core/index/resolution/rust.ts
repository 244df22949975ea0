import { SELF_RECEIVERS, throughInterface, unknownIsLikely, type LanguageResolution } from './query';

/** Rust: paths matched on their last segment, methods in any `impl` of the type's file. */
export const rustResolution: LanguageResolution = {
  looseQualifier: true,
  classIsFile: true,
  selfReceivers: SELF_RECEIVERS,
  fields: 'js',
  open: (q) => ({ unknownType: unknownIsLikely, otherType: (t) => throughInterface(q, t.type!) }),
};
