import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Rating } from './rating';

describe('Rating', () => {
  it('draws five stars in half steps and the review count', () => {
    render(<Rating rating={3.5} numReviews={12} />);
    const stars = screen.getByRole('img', { name: 'Rated 3.5 out of 5' });
    expect([...stars.children].map((star) => star.getAttribute('data-fill'))).toEqual([
      'full',
      'full',
      'full',
      'half',
      'empty',
    ]);
    expect(screen.getByText('12 reviews')).toBeInTheDocument();
  });
});
