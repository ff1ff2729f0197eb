import { HttpException } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { AllExceptionsFilter } from './all-exceptions.filter';

describe('AllExceptionsFilter.toBody', () => {
  const filter = new AllExceptionsFilter();

  it('answers a pool that found no free connection with 503: a burst, nothing changed, try again', () => {
    const body = filter.toBody(new Error('timeout exceeded when trying to connect'), 'req-1');
    expect(body).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message:
        'Warden is busy (every database connection is in use): nothing was changed, try again in 1 s',
    });
  });

  it('keeps any other unexpected error a 500 quoting only the correlation id', () => {
    const body = filter.toBody(new Error('timeout exceeded when trying to connect!'), 'req-2');
    expect(body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'internal error; correlation id req-2',
      correlation_id: 'req-2',
    });
  });

  it('maps domain errors and HTTP exceptions by their own status', () => {
    expect(filter.toBody(new DomainError('conflict', 'taken'), 'r')).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'taken',
    });
    expect(filter.toBody(new HttpException('gone away', 410), 'r')).toEqual({
      statusCode: 410,
      error: 'Gone',
      message: 'gone away',
    });
  });
});
