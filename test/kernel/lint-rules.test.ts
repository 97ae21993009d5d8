/**
 * The tidiness lint rules, pinned (issue 10): no line over 140 characters, and no one-character names in
 * functions longer than 15 lines (eslint-rules/short-names.js).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ESLint } from 'eslint';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('tidiness lint rules', () => {
  const eslint = new ESLint({ cwd: root });
  const lint = async (file: string, code: string, rule: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return result.messages.filter((m) => m.ruleId === rule);
  };
  /** A function whose body spans `lines` lines, declaring `declaration` first. */
  const fn = (declaration: string, lines: number) =>
    `export function sample(input: number[]) {\n  ${declaration}\n` + '  void input;\n'.repeat(lines - 3) + '}\n';

  it('max-len: a line over 140 characters is an error, a URL is not', async () => {
    const long = `export const text = '${'x'.repeat(130)}';\n`;
    const messages = await lint('plugins/system/example.ts', long, 'max-len');
    expect(messages.map((m) => m.severity)).to.deep.equal([2]);
    const url = `// see https://example.org/${'x'.repeat(130)}\nexport const one = 1;\n`;
    expect(await lint('plugins/system/example.ts', url, 'max-len')).to.deep.equal([]);
  });

  it('short-names: a one-character variable, parameter or catch name in a long function is an error', async () => {
    const names = async (code: string) =>
      (await lint('kernel/example.ts', code, 'crm/short-names')).map((m) => m.message.split("'")[1]);
    expect(await names(fn('const x = input[0]; void x;', 17))).to.deep.equal(['x']);
    expect(await names(fn('const { a, b: c } = { a: 1, b: 2 }; void a; void c;', 17))).to.deep.equal(['a', 'c']);
    expect(await names(fn('try { void 0; } catch (e) { void e; }', 17))).to.deep.equal(['e']);
    expect(await names(fn('for (let i = 0; i < 1; i++) void i; const _ = 1; void _;', 17))).to.deep.equal([]);
    // Short functions, and short callbacks inside long ones, keep short names.
    expect(await names(fn('const x = input[0]; void x;', 15))).to.deep.equal([]);
    expect(await names(fn('void input.map((r) => r + 1);', 17))).to.deep.equal([]);
  });
});
