import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@shop/ui/testing';
import AboutPage from '../about-page';

let reducedMotion = false;
const scrolled: { id: string; behavior: ScrollBehavior | undefined }[] = [];

beforeEach(() => {
  reducedMotion = false;
  scrolled.length = 0;
  // jsdom has neither media queries nor scrolling: record what the page asks for.
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: query === '(prefers-reduced-motion: reduce)' && reducedMotion,
      media: query,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  );
  Element.prototype.scrollIntoView = function (this: Element, options?: boolean | ScrollIntoViewOptions) {
    scrolled.push({ id: this.id, behavior: typeof options === 'object' ? options.behavior : undefined });
  };
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The page with in-page links, as the shell's footer offers them. */
function AboutWithFooter() {
  return (
    <>
      <AboutPage />
      <nav aria-label="Footer">
        <Link to="/about#testimonials">Review</Link>
        <Link to="/about#faq">FAQ</Link>
      </nav>
    </>
  );
}

const renderAbout = (url = '/about') => renderScreen(<AboutWithFooter />, { path: '/about/*', url });

describe('About screen', () => {
  it('has the hero, about us, services, three testimonials, the FAQ and the Bitcoin banner', () => {
    renderAbout();

    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(document.title).toBe('About Us | Firearms Store');
    for (const [id, name] of [
      ['about', 'About Us'],
      ['services', 'Our Services'],
      ['testimonials', 'What Our Customers Say'],
      ['faq', 'Frequently Asked Questions'],
    ] as const) {
      expect(screen.getByRole('region', { name })).toHaveAttribute('id', id);
    }
    const services = within(screen.getByRole('region', { name: 'Our Services' }));
    expect(services.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Engraving',
      'Gunsmithing',
      'Training',
    ]);
    expect(
      within(screen.getByRole('region', { name: 'What Our Customers Say' })).getAllByRole('listitem'),
    ).toHaveLength(3);
    const banner = within(screen.getByRole('region', { name: 'Pay with Bitcoin, save 10%' }));
    expect(banner.getByRole('link', { name: 'Shop Now' })).toHaveAttribute('href', '/');
  });

  it('draws every picture from the repository, with its size reserved', () => {
    const { container } = renderAbout();

    for (const image of container.querySelectorAll('img')) {
      expect(image.getAttribute('src')).not.toMatch(/^https?:/);
      expect(image).toHaveAttribute('width');
      expect(image).toHaveAttribute('height');
    }
    const video = container.querySelector('video')!;
    expect(video).toHaveAttribute('poster');
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
  });

  it('opens one FAQ answer at a time, and closes it again', async () => {
    renderAbout();
    const faq = within(screen.getByRole('region', { name: 'Frequently Asked Questions' }));
    const questions = faq.getAllByRole('button');
    expect(questions).toHaveLength(7);

    await userEvent.click(questions[0]!);
    expect(questions[0]).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(questions[3]!);
    expect(questions[3]).toHaveAttribute('aria-expanded', 'true');
    expect(questions[0]).toHaveAttribute('aria-expanded', 'false');
    expect(faq.getByText(/10% of the items price comes off/)).toBeVisible();

    await userEvent.click(questions[3]!);
    expect(questions.every((question) => question.getAttribute('aria-expanded') === 'false')).toBe(true);
  });

  it('scrolls smoothly to the section named by the hash on first load, and moves focus there', async () => {
    renderAbout('/about#faq');

    await waitFor(() => expect(scrolled).toEqual([{ id: 'faq', behavior: 'smooth' }]));
    expect(document.activeElement).toHaveAttribute('id', 'faq');
  });

  it('scrolls again when the hash changes, even to the same section twice', async () => {
    renderAbout('/about');
    expect(scrolled).toEqual([]);

    await userEvent.click(screen.getByRole('link', { name: 'Review' }));
    await waitFor(() => expect(scrolled.map((s) => s.id)).toEqual(['testimonials']));
    await userEvent.click(screen.getByRole('link', { name: 'FAQ' }));
    await userEvent.click(screen.getByRole('link', { name: 'FAQ' }));
    await waitFor(() => expect(scrolled.map((s) => s.id)).toEqual(['testimonials', 'faq', 'faq']));
    expect(currentLocation.hash).toBe('#faq');
  });

  it('jumps without animation and keeps the video still when less motion is asked for', async () => {
    reducedMotion = true;
    renderAbout('/about#services');

    await waitFor(() => expect(scrolled).toEqual([{ id: 'services', behavior: 'auto' }]));
    expect(HTMLMediaElement.prototype.play).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Play background video' })).toBeInTheDocument();
  });

  it('plays the muted clip otherwise, and the button pauses it', async () => {
    renderAbout();

    expect(HTMLMediaElement.prototype.play).toHaveBeenCalled();
    const video = document.querySelector('video')!;
    video.dispatchEvent(new Event('play'));
    const pause = await screen.findByRole('button', { name: 'Pause background video' });
    Object.defineProperty(video, 'paused', { value: false, configurable: true });
    await userEvent.click(pause);
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalled();
  });
});
