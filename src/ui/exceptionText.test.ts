import { describe, expect, it } from 'vitest';
import { exceptionText } from './exceptionText';

describe('exceptions in Python\'s words', () => {
  it('reads the repr back as a traceback writes it', () => {
    expect(exceptionText("ValueError('bad value')")).toBe('ValueError: bad value');
    expect(exceptionText('EOFError("EOF when reading a line")')).toBe('EOFError: EOF when reading a line');
    expect(exceptionText("ValueError('it\\'s bad')")).toBe("ValueError: it's bad");
    expect(exceptionText('StopIteration()')).toBe('StopIteration');
    expect(exceptionText("KeyError('missing')")).toBe("KeyError: 'missing'");
    expect(exceptionText("ValueError('a', 1)")).toBe("ValueError: 'a', 1");
    expect(exceptionText('ZeroDivisionError(\'division by zero\')')).toBe('ZeroDivisionError: division by zero');
  });

  it('leaves what it cannot read as it is', () => {
    expect(exceptionText('<repr failed: RecursionError>')).toBe('<repr failed: RecursionError>');
    expect(exceptionText("Oops('a') and more")).toBe("Oops('a') and more");
  });
});
