// An ESLint rule that keeps the core's tiers pointing one way: a module under src/core imports only
// its own tier and the tiers below it (the table is CORE_TIERS in importGraph.mjs, shared with the
// script that prints the graph's cycles).
import { dirname, resolve } from 'node:path';
import { CORE_TIERS, tierOf } from './importGraph.mjs';

const tierName = (i) => CORE_TIERS[i].tier;

/** The tier of a file, or a message saying the file is in none (a new top-level core module). */
function tierOrProblem(file) {
  try {
    return { tier: tierOf(file) };
  } catch (err) {
    return { problem: err.message };
  }
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Core modules import only their own tier and the tiers below it.' },
    messages: {
      upward:
        '{{from}} (tier {{fromTier}}) must not import {{to}} (tier {{toTier}}): the core tiers are ' +
        'common < platform < engines < features < wiring < api. Move the shared part down, or pass it in.',
      noTier: '{{problem}}',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const own = tierOrProblem(file);
    if (own.tier === -1) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      if (own.problem) {
        context.report({ node, messageId: 'noTier', data: { problem: own.problem } });
        return;
      }
      const target = tierOrProblem(resolve(dirname(file), source.replace(/\.js$/, '')) + '.ts');
      if (target.problem || target.tier <= own.tier) return;
      context.report({
        node,
        messageId: 'upward',
        data: { from: 'this module', fromTier: tierName(own.tier), to: source, toTier: tierName(target.tier) },
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'core-tiers': rule } };
