import { Box, Text } from '@mantine/core';

interface SummaryListProps {
  rows: ReadonlyArray<readonly [label: string, value: string]>;
}

/**
 * Label and value pairs as a definition list in two columns (one column below 360 px). A plain <dl>: Mantine's
 * Table would bring ScrollArea into the customer chunks (~7 KB gzipped).
 */
export function SummaryList({ rows }: SummaryListProps) {
  return (
    <Box
      component="dl"
      m={0}
      bd="1px solid var(--mantine-color-gray-3)"
      bdrs="md"
      style={{ display: 'grid', gridTemplateColumns: 'minmax(6.5rem, max-content) 1fr', overflow: 'hidden' }}
    >
      {rows.map(([label, value], index) => {
        const border = index > 0 ? '1px solid var(--mantine-color-gray-3)' : undefined;
        return (
          <Box key={label} display="contents">
            <Text
              component="dt"
              fw={700}
              size="sm"
              p="xs"
              bg="var(--mantine-color-gray-0)"
              style={{ borderTop: border }}
            >
              {label}
            </Text>
            <Text component="dd" m={0} size="sm" p="xs" style={{ borderTop: border, overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
