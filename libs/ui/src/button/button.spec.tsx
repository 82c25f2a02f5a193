import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Button, buttonClass } from './button';

describe('Button', () => {
  it('is a plain button of the primary look unless told otherwise, keeping the caller’s class', () => {
    render(
      <form>
        <Button className="wide">Place Order</Button>
        <Button type="submit" variant="danger" disabled>
          Delete
        </Button>
      </form>,
    );
    const place = screen.getByRole('button', { name: 'Place Order' });
    expect(place).toHaveAttribute('type', 'button');
    expect(place.className).toBe(buttonClass('primary', 'wide'));
    expect(place).toHaveClass('wide');
    const remove = screen.getByRole('button', { name: 'Delete' });
    expect(remove).toHaveAttribute('type', 'submit');
    expect(remove).toBeDisabled();
    expect(remove.className).toBe(buttonClass('danger'));
  });

  it('gives each look its own classes, the secondary one only the base', () => {
    const primary = buttonClass('primary');
    const secondary = buttonClass('secondary');
    const danger = buttonClass('danger');
    expect(new Set([primary, secondary, danger]).size).toBe(3);
    expect(primary.split(' ')).toHaveLength(2);
    expect(secondary.split(' ')).toHaveLength(1);
    expect(primary.startsWith(secondary)).toBe(true);
  });
});
