import { rubyCallsTo } from '../rubyCallers';
import { SELF_RECEIVERS, throughInterface, unknownIsLikely, type LanguageResolution } from './query';

/** Ruby: answered whole by its own rules (open classes, implicit receivers). */
export const rubyResolution: LanguageResolution = {
  callsTo: (state, def, onlyFile) => rubyCallsTo(state.db, def, onlyFile),
  selfReceivers: SELF_RECEIVERS,
  fields: 'js',
  open: (q) => ({ unknownType: unknownIsLikely, otherType: (t) => throughInterface(q, t.type!) }),
};
