/** Version of the page script; drivers may compare it with the installed one. */
export const PAGE_SCRIPT_VERSION = '0.1.0';
