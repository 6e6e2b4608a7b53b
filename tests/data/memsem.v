// memsem(m[4], mode): exercises the memory model of hls/interface.py on one 2-port,
// 32-bit-word memory.  7 cycles per call.
//   S1: port0 writes word 0 with byte-enable 0101 (d = AABBCCDD); port1 reads word 0
//       at the same edge (read-first: gets the old word).
//   S2: r_old <= q1; port0 reads word 0 (the merged word).
//   S3: r_new <= q0; no access (q1 must still hold the old word).
//   S4: r_hold <= q1; mode == 1: both ports write word 1 (a design error);
//       else port0 writes word 1 = r_old, port1 writes word 2 = r_new.
//   S5: port0 writes word 3 = r_hold.   DONE: ap_return = r_new.
module memsem (
    input  wire        ap_clk,
    input  wire        ap_rst_n,
    input  wire        ap_start,
    output wire        ap_done,
    output wire        ap_idle,
    output wire        ap_ready,
    output wire [31:0] ap_return,
    input  wire [7:0]  mode,
    output reg  [1:0]  m_address0,
    output reg         m_ce0,
    output reg  [3:0]  m_we0,
    output reg  [31:0] m_d0,
    input  wire [31:0] m_q0,
    output reg  [1:0]  m_address1,
    output reg         m_ce1,
    output reg  [3:0]  m_we1,
    output reg  [31:0] m_d1,
    input  wire [31:0] m_q1
);
    localparam S_IDLE = 3'd0, S1 = 3'd1, S2 = 3'd2, S3 = 3'd3, S4 = 3'd4, S5 = 3'd5,
               S_DONE = 3'd6;
    reg [2:0] state;
    reg [31:0] r_old, r_new, r_hold;

    always @(posedge ap_clk) begin
        if (!ap_rst_n) begin
            state <= S_IDLE;
        end else begin
            case (state)
                S_IDLE: if (ap_start) state <= S1;
                S1: state <= S2;
                S2: begin r_old <= m_q1; state <= S3; end
                S3: begin r_new <= m_q0; state <= S4; end
                S4: begin r_hold <= m_q1; state <= S5; end
                S5: state <= S_DONE;
                default: state <= S_IDLE;
            endcase
        end
    end

    always @(*) begin
        m_address0 = 2'd0; m_ce0 = 1'b0; m_we0 = 4'd0; m_d0 = 32'd0;
        m_address1 = 2'd0; m_ce1 = 1'b0; m_we1 = 4'd0; m_d1 = 32'd0;
        case (state)
            S1: begin
                m_ce0 = 1'b1; m_we0 = 4'b0101; m_d0 = 32'hAABBCCDD;
                m_ce1 = 1'b1;
            end
            S2: m_ce0 = 1'b1;
            S4: begin
                m_ce0 = 1'b1; m_we0 = 4'hF; m_address0 = 2'd1; m_d0 = r_old;
                m_ce1 = 1'b1; m_we1 = 4'hF; m_d1 = r_new;
                m_address1 = (mode == 8'd1) ? 2'd1 : 2'd2;
            end
            S5: begin
                m_ce0 = 1'b1; m_we0 = 4'hF; m_address0 = 2'd3; m_d0 = r_hold;
            end
            default: ;
        endcase
    end

    assign ap_idle = (state == S_IDLE);
    assign ap_done = (state == S_DONE);
    assign ap_ready = (state == S_DONE);
    assign ap_return = r_new;
endmodule
