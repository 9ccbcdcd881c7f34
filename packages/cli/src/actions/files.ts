/**
 * The files group: upload. Paths are taken from the current folder, as a person types them; the
 * daemon reads nothing outside the folders the user allowed (the session's folder, files.json,
 * `service start --allow-files`).
 */
import { isAbsolute, sep } from 'node:path';
import { usageError } from '../cli-error';
import { compact, elementTarget } from '../parsers';
import { choice, defineAction, flag, text, variadic } from './grammar';
import { SELECTOR, SELECTOR_HELP } from './interaction';

export const upload = defineAction({
  action: 'upload',
  path: ['upload'],
  args: [variadic('args')],
  options: { selector: SELECTOR },
  call([args], opts) {
    const handle = opts.selector === undefined ? args[0] : undefined;
    const files = opts.selector === undefined ? args.slice(1) : args;
    const target = elementTarget(handle, opts.selector, true);
    if (files.length === 0) throw usageError('give at least one file to upload');
    // Made absolute, never normalized: a ".." reaches the daemon, which refuses it by name.
    const absolute = files.map((f) => (isAbsolute(f) ? f : `${process.cwd()}${sep}${f}`));
    return { action: 'upload', params: { target, files: absolute } };
  },
  help: () => ({
    description:
      'set the files of a file input, or answer the file chooser an element opens (a button, a label)',
    args: { args: 'element handle then one or more files (with --selector: only files)' },
    options: { selector: SELECTOR_HELP },
    examples: [
      'bproxy upload -s m4q7z2 el3 report.pdf',
      'bproxy upload -s m4q7z2 el5 a.png b.png',
      'bproxy upload -s m4q7z2 --selector "input[type=file]" ~/for-agents/cv.pdf',
    ],
    after: `Files are read only from the session's folder (tmpDir of session create), the folders listed in
BPROXY_HOME/files.json ({"allow": ["/abs/dir"]}) and those of \`bproxy service start --allow-files DIR\`;
".." and links out are refused (PATH_NOT_ALLOWED) before anything is read; a relative FILE is taken
from the current folder. The input's accept and
single/multiple are respected (FILE_NOT_ACCEPTED). Output: the click's effects and
"files":[{"file":"report.pdf","bytes":1234}].\n`,
    reference: [
      { usage: '`bproxy -s ID upload el3 FILE…`', does: 'set a file input, or answer the chooser el3 opens' },
    ],
  }),
});

export const pdf = defineAction({
  action: 'pdf',
  path: ['pdf'],
  args: [],
  options: {
    out: text('--out <file>'),
    paper: choice('--paper <size>', ['letter', 'legal', 'tabloid', 'a3', 'a4', 'a5']),
    landscape: flag('--landscape'),
    background: flag('--background'),
  },
  call: (_args, opts) => ({
    action: 'pdf',
    params: compact({
      out: opts.out === undefined || isAbsolute(opts.out) ? opts.out : `${process.cwd()}${sep}${opts.out}`,
      paper: opts.paper,
      landscape: opts.landscape === true ? true : undefined,
      background: opts.background === true ? true : undefined,
    }),
  }),
  help: () => ({
    description: "save the page as PDF, in the session's folder or --out (inside an allowed folder)",
    args: {},
    options: {
      out: "where to write it (default: the session's folder, page-TIME.pdf)",
      paper: 'paper size (default letter)',
      landscape: 'landscape orientation',
      background: 'print background colours and images',
    },
    examples: [
      'bproxy pdf -s m4q7z2',
      'bproxy pdf -s m4q7z2 --paper a4 --landscape --out ~/for-agents/page.pdf',
    ],
    after: 'Output: {"file":"/…/page-….pdf","bytes":48213}. The daemon writes the file (0600).\n',
    reference: [
      { usage: '`bproxy -s ID pdf [--out FILE] [--paper a4] [--landscape]`', does: 'the page as PDF' },
    ],
  }),
});

export const downloads = defineAction({
  action: 'downloads',
  path: ['downloads'],
  args: [],
  options: {},
  call: () => ({ action: 'downloads', params: {} }),
  help: () => ({
    description: "list the session's downloads (files in its downloads folder)",
    args: {},
    options: {},
    examples: ['bproxy downloads -s m4q7z2', 'bproxy wait -s m4q7z2 --download'],
    after: `A download a session's tab starts lands in the session's folder (tmpDir/downloads/NAME, 0600,
the page's name without path parts, never overwriting: "NAME (2)"). The action that started it names it,
and \`wait --download\` waits for one to end. Over the cap (100 MiB, BPROXY_DOWNLOAD_MAX_BYTES) it is
stopped (DOWNLOAD_TOO_LARGE); programs and scripts (.exe .msi .bat .ps1 .sh .dmg .apk .jar…) are refused
(DOWNLOAD_TYPE_REFUSED); nothing of either is kept. The "download" approval class may ask
(APPROVAL_REQUIRED) or deny (POLICY_DENIED): then nothing is kept either. Browsers bproxy launches and
your own Chrome (the extension; your own downloads stay yours), not attached or remote ones (see README).
Output: {"downloads":[{"file":"/…/downloads/report.csv","bytes":1234,"url":"…","state":"completed"}]}.\n`,
    reference: [{ usage: '`bproxy -s ID downloads`', does: "the session's downloads" }],
  }),
});

/** These commands, in the order the help lists them. */
export const FILES = [upload, pdf, downloads];
