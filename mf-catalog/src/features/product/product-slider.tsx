import { A11y, Keyboard, Navigation, Pagination, Scrollbar } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import 'swiper/css';
import 'swiper/css/a11y';
import 'swiper/css/navigation';
import 'swiper/css/pagination';
import 'swiper/css/scrollbar';
import { mediaSrcSet } from '@shop/contracts';
import styles from './product-slider.module.css';

/**
 * How wide the slider draws a picture: half the page beside the details and the card on wide screens
 * (product-page.module.css: 2fr of 4), half of two columns between, the whole width on phones.
 */
const SLIDE_SIZES = '(min-width: 992px) 50vw, (min-width: 768px) 50vw, 100vw';

export interface ProductSliderProps {
  name: string;
  images: readonly string[];
}

/**
 * The product's pictures, one per view 50 px apart, with arrows, clickable bullets and a draggable scrollbar
 * (docs/product/screens.md, "Product page"); Swiper's a11y module names the arrows and bullets, arrow keys
 * move it too.
 */
export function ProductSlider({ name, images }: ProductSliderProps) {
  if (images.length === 0) {
    return <div className={styles['noImage']}>No image</div>;
  }
  return (
    <section className={styles['slider']} aria-label={`Pictures of ${name}`}>
      <Swiper
        modules={[Navigation, Pagination, Scrollbar, A11y, Keyboard]}
        slidesPerView={1}
        spaceBetween={50}
        navigation
        pagination={{ clickable: true }}
        scrollbar={{ draggable: true }}
        keyboard={{ enabled: true, onlyInViewport: true }}
        a11y={{
          prevSlideMessage: 'Previous picture',
          nextSlideMessage: 'Next picture',
          firstSlideMessage: 'This is the first picture',
          lastSlideMessage: 'This is the last picture',
          paginationBulletMessage: 'Go to picture {{index}}',
          slideLabelMessage: 'Picture {{index}} of {{slidesLength}}',
        }}
      >
        {images.map((image, index) => (
          <SwiperSlide key={image}>
            <img
              src={image}
              // Each uploaded picture is served at several widths: the browser takes the one the slide needs.
              srcSet={mediaSrcSet(image)}
              sizes={mediaSrcSet(image) ? SLIDE_SIZES : undefined}
              alt={index === 0 ? name : `${name}, picture ${index + 1}`}
              width={640}
              height={480}
              className={styles['image']}
              // The first picture is what the page opens on, asked for first (and what a rendered page's
              // code waits for); the others wait until they are slid to.
              loading={index === 0 ? 'eager' : 'lazy'}
              fetchPriority={index === 0 ? 'high' : undefined}
            />
          </SwiperSlide>
        ))}
      </Swiper>
    </section>
  );
}
