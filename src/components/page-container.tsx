import { Container, type ContainerProps } from '@mantine/core';

/** The phone-first page column used by the customer pages and the status pages. */
export function PageContainer({ children, ...props }: ContainerProps) {
  return (
    <Container component="main" size="sm" px="md" py="xl" {...props}>
      {children}
    </Container>
  );
}
