import { Anchor, type AnchorProps } from '@mantine/core';
import { Link } from 'react-router';

/** The way back to the top page that every customer page without a next step offers. */
export function HomeLink(props: AnchorProps) {
  return (
    <Anchor component={Link} to="/" {...props}>
      トップページへ戻る
    </Anchor>
  );
}
