import { describe, expect, it } from 'vitest';
import { parseProgramHeader } from './programHeader';

describe('parseProgramHeader', () => {
  it('reads the title and call lines at the top and gives the rest as the body', () => {
    expect(parseProgramHeader('# title: Sum a list\n# call: total([1, 2])\ndef total(xs):\n    return sum(xs)\n')).toEqual({
      title: 'Sum a list',
      call: 'total([1, 2])',
      body: 'def total(xs):\n    return sum(xs)\n',
    });
  });

  it('has no title and an empty call without a header, and ignores such lines further down', () => {
    expect(parseProgramHeader('x = 1\n# call: f()\n')).toEqual({ call: '', body: 'x = 1\n# call: f()\n' });
  });
});
