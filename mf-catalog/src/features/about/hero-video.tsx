import { useEffect, useRef, useState } from 'react';
import poster from './assets/hero-poster.svg';
import styles from './about-page.module.css';
import { useReducedMotion } from './use-reduced-motion';

// Made from the poster by scripts/make-hero-video.sh: 8 s, 47 KB, no sound. `new URL` lets webpack
// emit it as a file of its own, loaded only when this page shows it.
// Its path on the site, the same in the browser's build and the server's (which renders it into the page).
const VIDEO_URL = new URL('./assets/hero.webm', import.meta.url).pathname;

/**
 * The hero's background clip: muted, looping, decorative. It never starts for a visitor who asked for
 * less motion, and the button pauses or plays it for anyone (moving content must be stoppable).
 */
export function HeroVideo() {
  const reducedMotion = useReducedMotion();
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    if (reducedMotion) element.pause();
    // A browser may refuse to autoplay; the button stays on Play then.
    else element.play()?.catch(() => undefined);
  }, [reducedMotion]);

  const toggle = () => {
    const element = video.current;
    if (!element) return;
    if (element.paused) element.play()?.catch(() => undefined);
    else element.pause();
  };

  return (
    <>
      <video
        ref={video}
        className={styles['heroVideo']}
        poster={poster}
        width={960}
        height={540}
        muted
        loop
        playsInline
        preload={reducedMotion ? 'none' : 'auto'}
        aria-hidden="true"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
      >
        <source src={VIDEO_URL} type="video/webm" />
      </video>
      <button type="button" className={styles['videoToggle']} onClick={toggle}>
        {playing ? 'Pause background video' : 'Play background video'}
      </button>
    </>
  );
}
