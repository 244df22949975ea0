import { samePackageElsewhere } from '../resolve';
import { SELF_RECEIVERS, throughInterface, unknownIsLikely, type LanguageResolution } from './query';

/** Java: a package spans its folders, and `m()` inside the class calls its own method. */
export const javaResolution: LanguageResolution = {
  packageDirs: (state, dir) => [dir, ...samePackageElsewhere(dir, state.resolver().files)],
  implicitThis: true,
  superReceiver: 'super',
  selfReceivers: SELF_RECEIVERS,
  fields: 'js',
  open: (q) => ({ unknownType: unknownIsLikely, otherType: (t) => throughInterface(q, t.type!) }),
};
