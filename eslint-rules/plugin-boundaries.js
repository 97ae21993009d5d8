/**
 * A plugin imports another plugin only through that plugin's index.ts: `'../users'`, never
 * `'../users/store'`. The importing file's own plugin is free to import its own files; a test under
 * test/plugins/<name>/ may import the internals of plugin <name> (the plugin it tests).
 */
import path from 'node:path';

const root = path.dirname(import.meta.dirname);
const pluginsDir = path.join(root, 'plugins');
const pluginTestsDir = path.join(root, 'test', 'plugins');

/** The first folder of `file` under `dir`, or null when `file` is not inside `dir`. */
function firstFolderUnder(dir, file) {
  const rel = path.relative(dir, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

/** Whether `target` (resolved, without extension) is the plugin folder itself or its index file. */
function isPublicEntry(pluginName, target) {
  const rel = path.relative(path.join(pluginsDir, pluginName), target);
  return rel === '' || rel === 'index' || rel === 'index.ts' || rel === 'index.js';
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Import another plugin only through its index.ts, not its internal files' },
    messages: {
      internal:
        "Plugin boundary: import '{{target}}' through its index.ts ('{{suggestion}}'), not its internal file '{{source}}'.",
    },
    schema: [],
  },
  create(context) {
    const file = path.resolve(context.filename);
    const own = firstFolderUnder(pluginsDir, file) ?? firstFolderUnder(pluginTestsDir, file);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), source);
      const targetPlugin = firstFolderUnder(pluginsDir, target);
      if (!targetPlugin || targetPlugin === own || isPublicEntry(targetPlugin, target)) return;
      const suggestion = path
        .relative(path.dirname(file), path.join(pluginsDir, targetPlugin))
        .split(path.sep)
        .join('/');
      context.report({
        node,
        messageId: 'internal',
        data: { target: targetPlugin, source, suggestion: suggestion.startsWith('.') ? suggestion : `./${suggestion}` },
      });
    };
    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};
