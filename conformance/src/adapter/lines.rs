//! Lines of the protocol, read with a bound on their length: a peer that never
//! writes a newline costs at most the bound in memory, never an unbounded buffer.

use std::io::{self, BufRead, ErrorKind};

/// What one bounded read found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LineRead {
    /// A whole line, without its newline (the last line of the input may lack one).
    Line(Vec<u8>),
    /// More than the bound before a newline. The bytes read so far are dropped and
    /// the rest of the line is left unread: [`skip_line`] discards it.
    TooLong,
    /// The end of the input, with nothing read.
    Eof,
}

/// Reads one line of at most `max` bytes (the newline not counted).
///
/// # Errors
/// When reading fails.
pub(crate) fn read_line(reader: &mut impl BufRead, max: usize) -> io::Result<LineRead> {
    let mut line = Vec::new();
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(if line.is_empty() {
                LineRead::Eof
            } else {
                LineRead::Line(line)
            });
        }
        let room = max.saturating_sub(line.len());
        let newline = available.iter().position(|&byte| byte == b'\n');
        let part = available
            .get(..newline.unwrap_or(available.len()))
            .unwrap_or_default();
        if part.len() > room {
            return Ok(LineRead::TooLong);
        }
        line.extend_from_slice(part);
        match newline {
            Some(at) => {
                reader.consume(at.saturating_add(1));
                return Ok(LineRead::Line(line));
            }
            None => {
                let used = part.len();
                reader.consume(used);
            }
        }
    }
}

/// Discards the input up to and including the next newline, or to its end.
/// Returns how many bytes were discarded.
///
/// # Errors
/// When reading fails.
pub(crate) fn skip_line(reader: &mut impl BufRead) -> io::Result<u64> {
    let mut skipped: u64 = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            return Ok(skipped);
        }
        let (used, done) = match available.iter().position(|&byte| byte == b'\n') {
            Some(at) => (at.saturating_add(1), true),
            None => (available.len(), false),
        };
        reader.consume(used);
        skipped = skipped.saturating_add(u64::try_from(used).unwrap_or(u64::MAX));
        if done {
            return Ok(skipped);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Cursor};

    use super::*;

    fn reader(text: &[u8]) -> BufReader<Cursor<Vec<u8>>> {
        // A tiny buffer, so that lines span several fills.
        BufReader::with_capacity(3, Cursor::new(text.to_vec()))
    }

    #[test]
    fn lines_are_split_at_newlines_and_the_last_may_lack_one() {
        let mut input = reader(b"ab\n\ncdefg\nh");
        let mut got = Vec::new();
        loop {
            match read_line(&mut input, 10).unwrap() {
                LineRead::Eof => break,
                other => got.push(other),
            }
        }
        let line = |text: &[u8]| LineRead::Line(text.to_vec());
        assert_eq!(got, [line(b"ab"), line(b""), line(b"cdefg"), line(b"h")]);
    }

    #[test]
    fn a_line_longer_than_the_bound_is_reported_then_skipped() {
        let mut input = reader(b"12345\n123456789\nok\n");
        assert_eq!(
            read_line(&mut input, 5).unwrap(),
            LineRead::Line(b"12345".to_vec())
        );
        assert_eq!(read_line(&mut input, 5).unwrap(), LineRead::TooLong);
        assert!(skip_line(&mut input).unwrap() > 0);
        assert_eq!(
            read_line(&mut input, 5).unwrap(),
            LineRead::Line(b"ok".to_vec())
        );
        assert_eq!(read_line(&mut input, 5).unwrap(), LineRead::Eof);
    }

    #[test]
    fn skipping_an_unterminated_line_stops_at_the_end() {
        let mut input = reader(b"0123456789");
        assert_eq!(read_line(&mut input, 4).unwrap(), LineRead::TooLong);
        // The first fill (3 bytes) was read before the bound was crossed.
        assert_eq!(skip_line(&mut input).unwrap(), 7);
        assert_eq!(read_line(&mut input, 4).unwrap(), LineRead::Eof);
    }
}
