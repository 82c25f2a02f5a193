import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '@shop/ui/testing';
import LegalPage from '../legal-page';

describe('Legal screen', () => {
  it("shows the 'Terms and Conditions' heading and title", () => {
    renderScreen(<LegalPage />, { path: '/legal', url: '/legal' });

    expect(screen.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeInTheDocument();
    expect(document.title).toBe('Terms and Conditions');
  });

  it('caps liability at $1,000', () => {
    renderScreen(<LegalPage />, { path: '/legal', url: '/legal' });

    expect(screen.getByRole('region', { name: '5. Limitation of liability' })).toHaveTextContent(
      'in no case more than $1,000',
    );
  });

  it('states that data of children under thirteen is not knowingly collected', () => {
    renderScreen(<LegalPage />, { path: '/legal', url: '/legal' });

    expect(screen.getByRole('region', { name: '6. Privacy and children' })).toHaveTextContent(
      'we do not knowingly collect personal data from children under thirteen (13) years of age',
    );
  });
});
