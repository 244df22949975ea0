import { SELF_RECEIVERS, throughInterface, unknownIsLikely, type LanguageResolution } from './query';

/** C#: a namespace folder shares its names, `m()` inside the class calls its own method, `base.M()` the base's. */
export const csharpResolution: LanguageResolution = {
  packageDirs: (_state, dir) => [dir],
  implicitThis: true,
  superReceiver: 'base',
  selfReceivers: new Set([...SELF_RECEIVERS, 'base']),
  fields: 'js',
  open: (q) => ({ unknownType: unknownIsLikely, otherType: (t) => throughInterface(q, t.type!) }),
};
