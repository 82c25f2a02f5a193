import engraving from './assets/service-engraving.svg';
import gunsmithing from './assets/service-gunsmithing.svg';
import training from './assets/service-training.svg';

export const SERVICES = [
  {
    name: 'Engraving',
    picture: engraving,
    text: 'Hand and laser engraving of slides, frames and grips: names, serial-safe patterns, scrollwork and unit insignia.',
  },
  {
    name: 'Gunsmithing',
    picture: gunsmithing,
    text: 'Inspection, cleaning, trigger work, sight and optic installation, and repairs by certified gunsmiths.',
  },
  {
    name: 'Training',
    picture: training,
    text: 'Safety courses for first-time owners, marksmanship fundamentals and concealed-carry classes with certified instructors.',
  },
] as const;

export const TESTIMONIALS = [
  {
    name: 'Michael R.',
    place: 'San Diego, CA',
    rating: 5,
    quote:
      'Ordered a Glock 19 and a holster, paid with Bitcoin and saved on the pistol. The transfer to my local dealer was quick and every step was explained.',
  },
  {
    name: 'Sarah K.',
    place: 'Sacramento, CA',
    rating: 5,
    quote:
      'As a first-time owner I took the safety course before buying. Patient instructors, no pressure, and the staff helped me choose the right size.',
  },
  {
    name: 'David L.',
    place: 'Fresno, CA',
    rating: 4.5,
    quote:
      'They fitted a red dot to my slide and engraved it. Clean work, fair price, and it held zero from the first range trip.',
  },
] as const;

export const FAQS = [
  {
    question: 'Who can buy a firearm from the store?',
    answer:
      'Adults who may lawfully own firearms where they live: 21 or older for handguns, 18 or older for long guns and accessories where the law allows. Every firearm sale passes a background check.',
  },
  {
    question: 'How is a firearm delivered?',
    answer:
      'Firearms ship only to a licensed dealer (FFL) near you, where you complete the transfer paperwork and pick it up. Accessories ship straight to your address.',
  },
  {
    question: 'Which payment methods do you accept?',
    answer:
      'Bitcoin, Apple Pay and Cash App. After you place an order, its page shows where to send the payment and lets you upload the receipt.',
  },
  {
    question: 'How does the Bitcoin discount work?',
    answer:
      'Choose Bitcoin at checkout and 10% of the items price comes off your order total, shown before you place the order.',
  },
  {
    question: 'When is my order marked as paid?',
    answer:
      'Once you upload the payment receipt and mark the order as paid, it shows as Pending; it becomes Paid when our team has confirmed the payment.',
  },
  {
    question: 'Can I return a product?',
    answer:
      'Unused accessories can be returned within 30 days. Firearms can be returned only where the law allows and through a licensed dealer; contact us first.',
  },
  {
    question: 'Do you offer training for new owners?',
    answer:
      'Yes. Our certified instructors teach safety, marksmanship and concealed-carry courses; ask us for the next dates.',
  },
] as const;
