/**
 * Windows command lines, which are one string: splitting one the way Chrome's own parser
 * (CommandLineToArgvW) does, and quoting arguments so that it splits them back unchanged.
 */

/** Backslashes are literal except before a quote: 2n then `"` → n and a quote toggle; 2n+1 → n and `"`. */
export function splitWindowsCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let inQuotes = false;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      let slashes = 0;
      while (line[i] === '\\') {
        slashes++;
        i++;
      }
      if (line[i] === '"') {
        current += '\\'.repeat(Math.floor(slashes / 2));
        if (slashes % 2 === 1) current += '"';
        else inQuotes = !inQuotes;
      } else {
        current += '\\'.repeat(slashes);
        i--;
      }
      started = true;
    } else if (c === '"') {
      inQuotes = !inQuotes;
      started = true;
    } else if ((c === ' ' || c === '\t') && !inQuotes) {
      if (started) args.push(current);
      current = '';
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (started) args.push(current);
  return args;
}

export function quoteWindowsArg(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  let quoted = '"';
  for (let i = 0; i < arg.length; i++) {
    let slashes = 0;
    while (arg[i] === '\\') {
      slashes++;
      i++;
    }
    if (i === arg.length) {
      quoted += '\\'.repeat(slashes * 2);
      break;
    }
    if (arg[i] === '"') quoted += `${'\\'.repeat(slashes * 2 + 1)}"`;
    else quoted += `${'\\'.repeat(slashes)}${arg[i]}`;
  }
  return `${quoted}"`;
}

export function joinWindowsCommandLine(args: readonly string[]): string {
  return args.map(quoteWindowsArg).join(' ');
}

/** Windows paths compare without case, with either slash, without a trailing separator. */
export function sameWindowsPath(a: string, b: string): boolean {
  const norm = (p: string): string => p.replace(/\//g, '\\').replace(/\\+$/, '').toLowerCase();
  return norm(a) === norm(b);
}
