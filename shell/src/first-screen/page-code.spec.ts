import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectSettlesAfter, expectSettlesOn } from './__tests__/settles';
import { PAGE_CODE_ID, afterNextPaint, firstPicturesIn, readPageCode, startPageCode } from './page-code';

const picture = (priority?: 'high') => {
  const image = document.createElement('img');
  if (priority) image.setAttribute('fetchpriority', priority);
  // jsdom loads no pictures: an image is complete until it is given a source, and never after.
  image.src = '/api/media/a.jpg';
  document.body.append(image);
  return image;
};

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.useRealTimers();
});

describe('a rendered page’s code waits for its first pictures', () => {
  it('starts once every first picture has loaded or failed, not before, and not for the others', async () => {
    vi.useFakeTimers();
    const first = picture('high');
    const second = picture('high');
    picture();
    const started = firstPicturesIn(10_000);

    first.dispatchEvent(new Event('load'));
    await expectSettlesOn(started, () => second.dispatchEvent(new Event('error')));
  });

  it('waits for a first picture to be decoded after it has loaded: it is painted only then', async () => {
    vi.useFakeTimers();
    const first = picture('high');
    let decode!: () => void;
    first.decode = () => new Promise<void>((resolve) => (decode = resolve));
    const started = firstPicturesIn(10_000);

    first.dispatchEvent(new Event('load'));
    await expectSettlesOn(started, () => decode());
  });

  it('starts at once when the page asks for no picture first, and at the latest after the longest wait', async () => {
    vi.useFakeTimers();
    const withNone = vi.fn();
    void firstPicturesIn(10_000).then(withNone);
    await vi.advanceTimersByTimeAsync(0);
    expect(withNone).toHaveBeenCalledOnce();

    picture('high');
    await expectSettlesAfter(firstPicturesIn(2_500), 2_500);
  });

  it('starts at the page’s load event even while a picture is still loading', async () => {
    picture('high');
    const started = vi.fn();
    void firstPicturesIn(60_000).then(started);
    window.dispatchEvent(new Event('load'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toHaveBeenCalledOnce();
  });
});

describe('afterNextPaint', () => {
  it('settles after the next animation frame, not before', async () => {
    vi.useFakeTimers();
    const painted = vi.fn();
    void afterNextPaint(10_000).then(painted);
    await vi.advanceTimersByTimeAsync(0);
    expect(painted).not.toHaveBeenCalled();
    // One frame (jsdom's requestAnimationFrame runs on a timer), then the task after it.
    await vi.advanceTimersByTimeAsync(20);
    expect(painted).toHaveBeenCalledOnce();
  });

  it('settles where no frame comes (a background tab), after its longest wait', async () => {
    vi.useFakeTimers();
    const frame = vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
    await expectSettlesAfter(afterNextPaint(100), 100);
    frame.mockRestore();
  });
});

describe('the page’s code list', () => {
  const block = (text: string) => {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.id = PAGE_CODE_ID;
    script.textContent = text;
    document.body.append(script);
  };

  it('is read from its data block, and refused when absent or of another shape', () => {
    expect(readPageCode()).toBeUndefined();
    block('{"scripts":["/1.0.0/main.js"],"preload":[1]}');
    expect(readPageCode()).toBeUndefined();
    document.getElementById(PAGE_CODE_ID)!.textContent = '{"scripts":["/1.0.0/main.js"],"preload":[]}';
    expect(readPageCode()).toEqual({ scripts: ['/1.0.0/main.js'], preload: [] });
    document.getElementById(PAGE_CODE_ID)!.textContent = 'not json';
    expect(readPageCode()).toBeUndefined();
  });

  it('is loaded as the page would have: the preloads, then the scripts in their order', () => {
    startPageCode({
      scripts: ['/1.0.0/main.js', '/1.0.0/second.js'],
      preload: ['/1.0.0/framework.js'],
    });
    const preloads = [...document.head.querySelectorAll('link')];
    expect(preloads.map((link) => [link.rel, link.getAttribute('as'), link.getAttribute('href')])).toEqual([
      ['preload', 'script', '/1.0.0/framework.js'],
    ]);
    const scripts = [...document.head.querySelectorAll('script')];
    expect(scripts.map((script) => [script.getAttribute('src'), script.async])).toEqual([
      ['/1.0.0/main.js', false],
      ['/1.0.0/second.js', false],
    ]);
  });
});
