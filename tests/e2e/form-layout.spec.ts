import { expect, test, type Page } from '@playwright/test';
import { baseUrl, signIn } from './support/session.js';

/**
 * Issue 11: the kit's FormDialog lines up its labels and fields: every field on one left edge, every
 * label in one column left of them on a wide dialog, stacked above them on a narrow window. Each
 * screen's own header is the kit's PageHeader (one h2 with the page's name).
 */

/** The left edges of the labels and fields of the open form dialog, and each field's label box. */
async function formBoxes(page: Page) {
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('[data-testid="form-fields"] .lp-form-control').first()).toBeVisible();
  return dialog.locator('[data-testid="form-fields"] > .bp6-form-group').evaluateAll((groups) =>
    groups.map((g) => {
      const label = g.querySelector(':scope > label')?.getBoundingClientRect();
      const field = g.querySelector(':scope > .lp-form-control')!.getBoundingClientRect();
      return { label: label ? { x: Math.round(label.x), y: Math.round(label.y), right: Math.round(label.right) } : null, field: { x: Math.round(field.x), y: Math.round(field.y) } };
    }),
  );
}

const screens: Array<{ path: string; heading: string; open: (page: Page) => Promise<void> }> = [
  { path: '/user', heading: 'Users', open: (page) => page.getByTestId('user-add').click() },
  { path: '/role', heading: 'Roles', open: (page) => page.getByTestId('role-add').click() },
  { path: '/department', heading: 'Departments', open: (page) => page.getByTestId('department-add').click() },
  { path: '/dictionary', heading: 'Dictionary types', open: (page) => page.getByRole('button', { name: 'Add type' }).click() },
  { path: '/domain', heading: 'Translation domains', open: (page) => page.getByTestId('domain-add').click() },
  { path: '/limit', heading: 'Permissions', open: (page) => page.getByTestId('limit-add').click() },
  { path: '/service', heading: 'Engines', open: (page) => page.getByTestId('add-engine').click() },
];

test('the fields of every admin dialog share one left edge, labels in one column beside them, stacked on a narrow window', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  for (const screen of screens) {
    await page.goto(`${baseUrl()}${screen.path}`);
    const header = page.getByTestId('page-header');
    await expect(header.getByRole('heading', { level: 2 })).toHaveText(screen.heading);
    await screen.open(page);
    const boxes = await formBoxes(page);
    expect(boxes.length, screen.path).toBeGreaterThan(1);
    const fieldEdges = new Set(boxes.map((b) => b.field.x));
    expect([...fieldEdges], `${screen.path}: one left edge for the fields`).toHaveLength(1);
    const labelled = boxes.filter((b) => b.label);
    expect(new Set(labelled.map((b) => b.label!.x)).size, `${screen.path}: one left edge for the labels`).toBe(1);
    for (const b of labelled) {
      // Inline: the label is left of its field, on the same line.
      expect(b.label!.right, screen.path).toBeLessThanOrEqual(b.field.x);
      expect(Math.abs(b.label!.y - b.field.y), screen.path).toBeLessThanOrEqual(8);
    }
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }

  // A phone-sized window: the dialog is narrower than 480 px, so each label sits above its field.
  await page.setViewportSize({ width: 420, height: 800 });
  await page.goto(`${baseUrl()}/role`);
  await page.getByTestId('role-add').click();
  const narrow = await formBoxes(page);
  for (const b of narrow.filter((x) => x.label)) {
    expect(b.label!.y).toBeLessThan(b.field.y);
    expect(b.label!.x).toBe(b.field.x);
  }
});
