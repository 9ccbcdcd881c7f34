/**
 * The names a snapshot's outline gives its marked elements, read back for the activity feed: a control
 * line's role and quoted name (values and states left out), a link in a line of text by its bracketed
 * name, several links on one line each by its own, and a line with no name by its role alone.
 */
import { SNAPSHOT_REF_CLOSE as C, SNAPSHOT_REF_OPEN as O } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';
import { snapshotNames } from '../../src/actions/snapshot-names';

describe('snapshotNames', () => {
  it('reads each marked element’s role and name from its line', () => {
    const outline = [
      `heading "Shop"`,
      `  - button "Add \\"Mug\\" to cart" ${O}0${C}`,
      `  textbox "Name" value="Ada" ${O}1${C}`,
      `  checkbox "Gift wrap" checked ${O}2${C}`,
      `Read the [terms]${O}3${C} and the [privacy note]${O}4${C} first.`,
      `  button ${O}5${C}`,
    ].join('\n');
    expect(Object.fromEntries(snapshotNames(outline))).toEqual({
      0: 'button "Add \\"Mug\\" to cart"',
      1: 'textbox "Name"',
      2: 'checkbox "Gift wrap"',
      3: 'link "terms"',
      4: 'link "privacy note"',
      5: 'button',
    });
  });
});
