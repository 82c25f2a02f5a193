import { expect, startSignedIn, test } from './fixtures';
import { noisyPicture, truncated } from './test-images';

// A damaged picture (a truncated copy, as phones and flaky networks make) is refused at upload
// (docs/decisions/0006-catalogue-and-media.md, "Media service"), and the admin reads why in the listing's
// image field instead of the shop serving it broken.

test('an admin adding a damaged picture to a listing reads why it was refused, in its tile', async ({
  admin,
  page,
}) => {
  const sound = await noisyPicture('png');
  await startSignedIn(page, admin);

  await page.goto('/create-listing');
  await expect(page.getByRole('heading', { level: 1, name: 'Create Listing' })).toBeVisible();
  await page.getByLabel('Images').setInputFiles([
    { name: 'front.png', mimeType: 'image/png', buffer: sound },
    { name: 'broken.png', mimeType: 'image/png', buffer: truncated(sound) },
  ]);

  const tiles = page.getByRole('list', { name: 'Listing images' });
  await expect(tiles.getByRole('img', { name: 'Image 1: front.png' })).toHaveAttribute(
    'src',
    /^\/api\/media\//,
  );
  const broken = tiles
    .getByRole('listitem')
    .filter({ has: page.getByRole('img', { name: 'Image 2: broken.png' }) });
  await expect(broken.getByRole('alert')).toHaveText(
    'Image upload failed (3 mb max per image) The image is damaged or incomplete',
  );
});
