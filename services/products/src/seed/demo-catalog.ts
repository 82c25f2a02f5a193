import type { ProductRecord } from '../products/product.schema';
import type { DemoShape } from './demo-images';

export interface DemoProduct extends Omit<
  ProductRecord,
  'image' | 'deletedAt' | 'deletedSlug' | 'lowStockThreshold' | 'lowStock'
> {
  shape: DemoShape;
  accent: readonly [number, number, number];
  imageCount: number;
}

const OLIVE = [107, 122, 63] as const;
const TAN = [190, 156, 104] as const;
const RED = [178, 46, 46] as const;
const BLUE = [48, 92, 160] as const;
const ORANGE = [214, 122, 36] as const;

/** The demo catalogue: pistols and accessories across several categories and brands, one sold out. */
export const DEMO_CATALOG: DemoProduct[] = [
  {
    name: 'Glock 19 Gen5 9mm',
    slug: 'glock-19-gen5',
    category: 'Pistols',
    brand: 'Glock',
    price: 599.99,
    countInStock: 12,
    rating: 4.8,
    numReviews: 214,
    description:
      'The compact all-rounder: a 15-round 9mm with the Marksman barrel, flared magwell and ambidextrous slide stop, sized for both duty and everyday carry.',
    shape: 'pistol',
    accent: OLIVE,
    imageCount: 3,
  },
  {
    name: 'Glock 17 Gen5 9mm',
    slug: 'glock-17-gen5',
    category: 'Pistols',
    brand: 'Glock',
    price: 619.99,
    countInStock: 8,
    rating: 4.7,
    numReviews: 168,
    description:
      'Full-size 9mm with a 17-round magazine, nDLC finish and a longer sight radius for steady, accurate shooting at the range and on duty.',
    shape: 'pistol',
    accent: TAN,
    imageCount: 2,
  },
  {
    name: 'Glock 43X MOS 9mm',
    slug: 'glock-43x-mos',
    category: 'Pistols',
    brand: 'Glock',
    price: 549.5,
    countInStock: 5,
    rating: 4.6,
    numReviews: 97,
    description:
      'Slimline single-stack 9mm, optics-ready from the factory, with a 10-round magazine that disappears under a shirt for comfortable concealed carry.',
    shape: 'pistol',
    accent: BLUE,
    imageCount: 2,
  },
  {
    name: 'SIG Sauer P365 XL',
    slug: 'sig-sauer-p365-xl',
    category: 'Pistols',
    brand: 'SIG Sauer',
    price: 679,
    countInStock: 0,
    rating: 4.5,
    numReviews: 131,
    description:
      'Micro-compact capacity with a longer grip and slide, flat trigger and X-Ray3 day/night sights; a favourite for carry that still shoots like a duty gun.',
    shape: 'pistol',
    accent: RED,
    imageCount: 2,
  },
  {
    name: 'Smith & Wesson M&P9 M2.0',
    slug: 'smith-wesson-mp9-m2',
    category: 'Pistols',
    brand: 'Smith & Wesson',
    price: 529.99,
    countInStock: 9,
    rating: 4.4,
    numReviews: 88,
    description:
      'Aggressive grip texture, interchangeable palm swells and a crisp trigger make this full-size striker pistol easy to shoot well all day.',
    shape: 'pistol',
    accent: ORANGE,
    imageCount: 2,
  },
  {
    name: 'Safariland 7360 RDS Duty Holster',
    slug: 'safariland-7360-rds',
    category: 'Holsters',
    brand: 'Safariland',
    price: 189.95,
    countInStock: 20,
    rating: 4.9,
    numReviews: 56,
    description:
      'Level III retention duty holster cut for red-dot optics, with the ALS guard and SLS hood working together for a fast, secure draw.',
    shape: 'holster',
    accent: OLIVE,
    imageCount: 2,
  },
  {
    name: 'Vedder LightTuck IWB Holster',
    slug: 'vedder-lighttuck-iwb',
    category: 'Holsters',
    brand: 'Vedder',
    price: 64.99,
    countInStock: 34,
    rating: 4.6,
    numReviews: 402,
    description:
      'Low-profile inside-the-waistband Kydex holster with adjustable retention and cant, moulded for Glock compact frames.',
    shape: 'holster',
    accent: TAN,
    imageCount: 1,
  },
  {
    name: 'Holosun 507C X2 Red Dot',
    slug: 'holosun-507c-x2',
    category: 'Optics',
    brand: 'Holosun',
    price: 299.99,
    countInStock: 15,
    rating: 4.7,
    numReviews: 189,
    description:
      'Rugged open-emitter pistol optic with a 2 MOA dot and 32 MOA circle, solar failsafe, shake-awake and a 50,000-hour battery life.',
    shape: 'optic',
    accent: RED,
    imageCount: 2,
  },
  {
    name: 'Trijicon RMR Type 2',
    slug: 'trijicon-rmr-type-2',
    category: 'Optics',
    brand: 'Trijicon',
    price: 549,
    countInStock: 4,
    rating: 4.8,
    numReviews: 143,
    description:
      'The duty-proven miniature reflex sight: forged aluminium housing, 3.25 MOA adjustable LED dot and a patented shape that sheds impacts.',
    shape: 'optic',
    accent: BLUE,
    imageCount: 2,
  },
  {
    name: 'Glock G19 15-Round Magazine',
    slug: 'glock-g19-15-round-magazine',
    category: 'Magazines',
    brand: 'Glock',
    price: 29.99,
    countInStock: 120,
    rating: 4.9,
    numReviews: 611,
    description:
      'Factory 15-round 9mm magazine with a steel-lined polymer body and orange follower, fitting every Glock 19 generation.',
    shape: 'magazine',
    accent: ORANGE,
    imageCount: 1,
  },
  {
    name: 'Magpul PMAG GL9 21-Round',
    slug: 'magpul-pmag-gl9-21',
    category: 'Magazines',
    brand: 'Magpul',
    price: 24.95,
    countInStock: 75,
    rating: 4.5,
    numReviews: 233,
    description:
      'Extended 21-round polymer magazine for Glock 9mm pistols, with a constant-force spring and an anti-tilt follower for reliable feeding.',
    shape: 'magazine',
    accent: TAN,
    imageCount: 1,
  },
  {
    name: 'Streamlight TLR-1 HL Weapon Light',
    slug: 'streamlight-tlr-1-hl',
    category: 'Lights',
    brand: 'Streamlight',
    price: 169.99,
    countInStock: 18,
    rating: 4.7,
    numReviews: 176,
    description:
      '1,000-lumen rail-mounted light with ambidextrous momentary and steady switches, an aluminium body and a rail clamp that fits most pistols.',
    shape: 'light',
    accent: BLUE,
    imageCount: 2,
  },
  {
    name: 'Surefire X300U-A',
    slug: 'surefire-x300u-a',
    category: 'Lights',
    brand: 'SureFire',
    price: 329,
    countInStock: 6,
    rating: 4.8,
    numReviews: 91,
    description:
      'The benchmark weapon light: 1,000 lumens of white light through a TIR lens, a rail-lock mount and a sealed body built for hard use.',
    shape: 'light',
    accent: OLIVE,
    imageCount: 1,
  },
  {
    name: 'Otis 9mm Pistol Cleaning Kit',
    slug: 'otis-9mm-cleaning-kit',
    category: 'Cleaning',
    brand: 'Otis',
    price: 39.99,
    countInStock: 40,
    rating: 4.3,
    numReviews: 74,
    description:
      'Compact breech-to-muzzle cleaning system with a Memory-Flex cable, bore brushes, patches and a tool for the slide rails and magwell.',
    shape: 'kit',
    accent: RED,
    imageCount: 1,
  },
  {
    name: 'Real Avid Gun Boss Pro Kit',
    slug: 'real-avid-gun-boss-pro',
    category: 'Cleaning',
    brand: 'Real Avid',
    price: 54.99,
    countInStock: 22,
    rating: 4.2,
    numReviews: 38,
    description:
      'Everything a handgun needs after a range day: solvent, lube, bore rods, picks, a non-slip mat and a hard case that keeps it together.',
    shape: 'kit',
    accent: ORANGE,
    imageCount: 1,
  },
  {
    name: 'Glock Factory Night Sights',
    slug: 'glock-factory-night-sights',
    category: 'Sights',
    brand: 'Glock',
    price: 1249.5,
    countInStock: 3,
    rating: 3.5,
    numReviews: 12,
    description:
      'Professional installation set of tritium night sights for the whole Glock line, sold as a full armourer bundle for small ranges and shops.',
    shape: 'optic',
    accent: OLIVE,
    imageCount: 1,
  },
];
