use super::*;

#[test]
fn listen_addresses_take_codex_app_server_forms() {
    assert_eq!(Listen::parse("stdio://").ok(), Some(Listen::Stdio));
    assert_eq!(
        Listen::parse("ws://127.0.0.1:4500").ok(),
        Some(Listen::WebSocket(SocketAddr::from(([127, 0, 0, 1], 4500))))
    );
    assert_eq!(
        Listen::parse("unix:///tmp/s.sock").ok(),
        Some(Listen::Unix(PathBuf::from("/tmp/s.sock")))
    );
    for bad in ["", "ws://", "tcp://1.2.3.4:5", "unix://", "ws://127.0.0.1"] {
        assert!(Listen::parse(bad).is_err(), "{bad} was taken");
    }
}

#[test]
fn only_a_loopback_address_goes_without_a_token() -> Result<(), ListenError> {
    check_token(&Listen::parse("ws://127.0.0.1:4500")?, None)?;
    check_token(&Listen::Stdio, None)?;
    let open = Listen::parse("ws://0.0.0.0:4500")?;
    let refused = check_token(&open, None).err();
    assert_eq!(
        refused.map(|error| error.to_string()).as_deref(),
        Some("--listen ws://0.0.0.0:4500: an address that is not loopback needs --auth-token-env")
    );
    check_token(&open, Some("secret"))
}

#[test]
fn serving_an_open_address_without_a_token_is_refused_before_it_listens() {
    let served = Arc::new(ServedHome::new(codex_rollout::CodexHome::new(
        "/nonexistent",
    )));
    let open = Listen::WebSocket(SocketAddr::from(([0, 0, 0, 0], 0)));
    let refused = serve_home(&served, &open, None, |_| {});
    assert!(
        matches!(refused, Err(ListenError::NeedsToken(_))),
        "{refused:?}"
    );
}
