use super::*;

#[test]
fn listen_addresses_take_codex_app_server_forms() {
    assert_eq!(listen_address("stdio://").ok(), Some(Listen::Stdio));
    assert_eq!(
        listen_address("ws://127.0.0.1:4500").ok(),
        Some(Listen::WebSocket(SocketAddr::from(([127, 0, 0, 1], 4500))))
    );
    assert_eq!(
        listen_address("unix:///tmp/s.sock").ok(),
        Some(Listen::Unix(PathBuf::from("/tmp/s.sock")))
    );
    for bad in ["", "ws://", "tcp://1.2.3.4:5", "unix://", "ws://127.0.0.1"] {
        assert!(listen_address(bad).is_err(), "{bad} was taken");
    }
}
