/** `offset` (the default): flat `limit` and 0-based `offset`; a larger limit is clamped to maxLimit. */
import { readPageInteger, type PaginationStrategy } from './pagination-strategy';

export const OffsetPaginationStrategy: PaginationStrategy = {
  name: 'offset',
  params: ['limit', 'offset'],
  plan({ params, settings, errors }) {
    const limit = Math.min(
      readPageInteger(params.get('limit'), 'limit', errors) ?? settings.defaultLimit,
      settings.maxLimit,
    );
    const offset = readPageInteger(params.get('offset'), 'offset', errors) ?? 0;
    return { limit, offset, reportedLimit: limit, reportedOffset: offset };
  },
};
