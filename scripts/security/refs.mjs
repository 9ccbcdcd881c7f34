// The test references of docs/security.md, parsed once for the doc check and the mutant runner.
// A reference is a backticked `path › describe › test`; a backticked `› title` later on the same line
// continues the reference before it: same file, same describe blocks, another test.

const FULL = /^((?:packages|tests|scripts)\/[^\s›]+\.(?:ts|mjs))((?:\s*›.*)?)$/;
const TITLES = (s) =>
  s
    .split('›')
    .map((t) => t.trim())
    .filter((t) => t !== '');

/**
 * Every test reference in the threat model, continuations resolved.
 * @param {string} doc
 * @returns {{ file: string, titles: string[], text: string }[]}
 */
export function securityReferences(doc) {
  const refs = [];
  for (const line of doc.split('\n')) {
    let last = null;
    for (const m of line.matchAll(/`([^`]+)`/g)) {
      const inner = (m[1] ?? '').trim();
      const full = FULL.exec(inner);
      if (full) {
        last = { file: full[1] ?? '', titles: TITLES(full[2] ?? '') };
        refs.push({ ...last, text: render(last) });
      } else if (inner.startsWith('›') && last && last.titles.length > 0) {
        const next = { file: last.file, titles: [...last.titles.slice(0, -1), ...TITLES(inner)] };
        refs.push({ ...next, text: render(next) });
      }
    }
  }
  return refs;
}

/** The longest run of a title with no placeholder in it (`%s`, `$name`, `(case …)`). */
export function fixedPart(title) {
  return title
    .split(/%[sdjio]|\$\w+|\(case [^)]*\)/)
    .map((p) => p.trim())
    .reduce((a, b) => (b.length > a.length ? b : a), '');
}

/** `file › a › b`, the one spelling the registry of mutants uses. */
export function render({ file, titles }) {
  return [file, ...titles].join(' › ');
}
