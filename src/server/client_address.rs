//! Who a request comes from, for the limits kept per client address (tables opened a minute, sockets
//! held). Behind a load balancer or an Ingress the connection's peer is the proxy, so every visitor
//! would share one allowance; the client's own address is then in `X-Forwarded-For`, which anybody can
//! write. So the header is read only when the peer is one of the `trusted_proxies`, and then from the
//! right: each trusted proxy appends the address it heard from, so the right-most entry that is not a
//! trusted proxy is the first address no trusted proxy could vouch for past, the client as far as we
//! can know. Entries to its left were written by the client itself and are ignored.
//!
//! The same key counts a connection the moment it is accepted (`door`), before any header: it is then
//! the peer's own address, unless the peer is a trusted proxy, whose requests are each counted later.
//!
//! IPv6 clients are keyed by their /64: one home or phone is usually given a whole /64, and could
//! otherwise take a fresh address for every table.

use std::net::{IpAddr, Ipv6Addr};

use actix_http::header::HeaderMap;
use ipnet::IpNet;

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Clone, Debug, Default)]
pub struct ClientAddress {
    trusted: Vec<IpNet>,
}

impl ClientAddress {
    /// From the `trusted_proxies` setting: CIDR blocks (or single addresses) separated by commas or
    /// spaces; empty trusts nobody, and the peer is the client.
    pub fn new(trusted_proxies: &str) -> Result<ClientAddress, String> {
        let trusted = trusted_proxies
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|block| !block.is_empty())
            .map(|block| {
                block
                    .parse::<IpNet>()
                    .or_else(|_| block.parse::<IpAddr>().map(IpNet::from))
                    .map(|net| net.trunc())
                    .map_err(|_| {
                        format!("trusted_proxies: {block:?} is not an address or a CIDR block")
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(ClientAddress { trusted })
    }

    /// The key that `peer`'s request is counted under: the client's address as far as the trusted
    /// proxies say, an IPv6 one cut to its /64.
    pub fn key(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        per_household(self.client(peer.to_canonical(), headers))
    }

    fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let mut client = peer;
        // Every X-Forwarded-For line, in order, as one list.
        let entries: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .collect();
        for entry in entries.into_iter().rev() {
            let Some(address) = parse_entry(entry) else {
                // A trusted proxy would not write this; stop at the last hop it did vouch for.
                return client;
            };
            client = address;
            if !self.trusts(address) {
                return address;
            }
        }
        client
    }

    /// Whether `address` is one of the trusted proxies.
    pub fn trusts(&self, address: IpAddr) -> bool {
        self.trusted.iter().any(|net| net.contains(&address))
    }
}

/// One entry of `X-Forwarded-For`: an address, maybe with a port (`1.2.3.4:5678`, `[::1]:5678`).
fn parse_entry(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    if let Ok(address) = entry.parse::<IpAddr>() {
        return Some(address.to_canonical());
    }
    entry
        .parse::<std::net::SocketAddr>()
        .ok()
        .map(|socket| socket.ip().to_canonical())
}

/// An IPv6 address cut to its /64; an IPv4 address as it is.
fn per_household(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_http::header::{HeaderName, HeaderValue};

    fn forwarded(lines: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append(
                HeaderName::from_static("x-forwarded-for"),
                HeaderValue::from_str(line).unwrap(),
            );
        }
        headers
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn without_trusted_proxies_the_peer_is_the_client_whatever_the_header_says() {
        let nobody = ClientAddress::new("").unwrap();
        let headers = forwarded(&["203.0.113.9"]);
        assert_eq!(nobody.key(ip("10.1.2.3"), &headers), ip("10.1.2.3"));
        let some = ClientAddress::new("10.0.0.0/8").unwrap();
        // An untrusted peer writing the header is keyed by its own address.
        assert_eq!(some.key(ip("198.51.100.7"), &headers), ip("198.51.100.7"));
    }

    #[test]
    fn behind_trusted_proxies_the_right_most_untrusted_entry_is_the_client() {
        let proxies = ClientAddress::new("10.0.0.0/8, 192.168.1.1").unwrap();
        // The client wrote a fake first entry; the Ingress appended what it heard.
        let headers = forwarded(&["1.1.1.1, 203.0.113.9", "10.0.0.5"]);
        assert_eq!(proxies.key(ip("10.9.9.9"), &headers), ip("203.0.113.9"));
        // With a port, and through a second trusted hop given as one address.
        let headers = forwarded(&["203.0.113.10:4567, 192.168.1.1"]);
        assert_eq!(proxies.key(ip("10.9.9.9"), &headers), ip("203.0.113.10"));
        // Every entry trusted: the left-most is as far as the chain goes.
        let headers = forwarded(&["10.0.0.7, 10.0.0.5"]);
        assert_eq!(proxies.key(ip("10.9.9.9"), &headers), ip("10.0.0.7"));
        // No header: the proxy itself.
        assert_eq!(
            proxies.key(ip("10.9.9.9"), &HeaderMap::new()),
            ip("10.9.9.9")
        );
        // Garbage stops the walk at the last hop a trusted proxy vouched for.
        let headers = forwarded(&["203.0.113.9, not-an-address, 10.0.0.5"]);
        assert_eq!(proxies.key(ip("10.9.9.9"), &headers), ip("10.0.0.5"));
    }

    #[test]
    fn ipv6_clients_are_keyed_by_their_64() {
        let nobody = ClientAddress::new("").unwrap();
        let a = nobody.key(ip("2001:db8:1:2:aaaa::1"), &HeaderMap::new());
        let b = nobody.key(ip("2001:db8:1:2:bbbb:cccc:dddd:eeee"), &HeaderMap::new());
        assert_eq!(a, b);
        assert_eq!(a, ip("2001:db8:1:2::"));
        let other = nobody.key(ip("2001:db8:1:3::1"), &HeaderMap::new());
        assert_ne!(a, other);
        // An IPv4 client reached over an IPv6 socket is the IPv4 address.
        assert_eq!(
            nobody.key(ip("::ffff:203.0.113.9"), &HeaderMap::new()),
            ip("203.0.113.9")
        );
        let proxies = ClientAddress::new("fd00::/8").unwrap();
        let headers = forwarded(&["[2001:db8:5:6:7::8]:443"]);
        assert_eq!(proxies.key(ip("fd00::1"), &headers), ip("2001:db8:5:6::"));
    }

    #[test]
    fn a_setting_that_is_not_a_block_is_refused() {
        assert!(ClientAddress::new("10.0.0.0/33").is_err());
        assert!(ClientAddress::new("proxy.internal").is_err());
        assert!(ClientAddress::new(" 10.0.0.0/8 ,, fd00::/8 ").is_ok());
    }
}
